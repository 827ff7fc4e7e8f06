/// One option of config.toml as the documentation shows it. The table below is keyed by the same
/// names as `KioskConfig.knownKeys` and the parser's decode switch; a test holds the three
/// together, so no option is undocumented or documented twice, and docs/configuration.md is
/// generated from it (`photokiosk config-reference`).
public struct ConfigOptionReference: Sendable {
    /// "table.option" as the parser names it ("log_level" for the top level).
    public let key: String
    /// What may be written, e.g. "seconds, 1 to 86400".
    public let values: String
    /// The default as TOML text the parser reads back to `KioskConfig()`; nil when the default
    /// is not a fixed value (`defaultNote` says what it is).
    public let defaultValue: String?
    public let defaultNote: String?
    /// A valid value other than the default, as TOML text: the tests parse it and expect the
    /// config to change, which proves the parser reads the option.
    public let example: String
    public let summary: String

    init(_ key: String, values: String, default defaultValue: String?, note defaultNote: String? = nil,
         example: String, _ summary: String) {
        self.key = key
        self.values = values
        self.defaultValue = defaultValue
        self.defaultNote = defaultNote
        self.example = example
        self.summary = summary
    }

    /// The command-line flag that overrides it (`KioskConfigOverrides.flagNames`, the names the
    /// error messages use); a period's keys share `--schedule`.
    public var flag: String? {
        KioskConfigOverrides.flagNames[key] ?? KioskConfigOverrides.flagNames[table]
    }

    /// The table it sits in ("" for the top level).
    public var table: String {
        guard let dot = key.lastIndex(of: ".") else { return "" }
        return String(key[..<dot])
    }

    /// The option's own name.
    public var name: String {
        guard let dot = key.lastIndex(of: ".") else { return key }
        return String(key[key.index(after: dot)...])
    }

    /// An enumeration's values, straight from its cases, so a new case is documented by itself.
    static func choices<E: CaseIterable & RawRepresentable>(_: E.Type) -> String where E.RawValue == String {
        E.allCases.map { "`\"\($0.rawValue)\"`" }.joined(separator: ", ")
    }
}

extension KioskConfig {
    /// Every option of config.toml, in the order of the reference.
    public static let reference: [ConfigOptionReference] = [
        .init("log_level", values: ConfigOptionReference.choices(LogLevel.self), default: "\"info\"", example: "\"debug\"",
              "How much the log says; \"debug\" and \"trace\" add detail."),
        .init("kiosk", values: "`true` or `false`", default: "false", example: "true",
              "Kiosk mode: no key or gesture quits the program (public displays, family frames)."),

        .init("library.folders", values: "a list of folders", default: "[\"/var/lib/photokiosk/photos\"]", example: "[\"/media/photos\", \"/srv/photos\"]",
              "Folders whose photos are shown (JPEG, PNG, HEIC/HEIF, AVIF and WebP), searched recursively. A folder that does not exist yet is watched for. When the default folder does not exist, the bundled sample photos are shown."),
        .init("library.sort", values: ConfigOptionReference.choices(Sort.self), default: "\"name\"", example: "\"date\"",
              "Order of the grid: file name (natural order) or date taken (EXIF, else the file time), oldest first."),
        .init("library.thumbnail_size", values: "points, 32 to 2048", default: "140", example: "200",
              "Edge of a grid thumbnail in points (1/160 inch on a screen that reports its size, else sized from the resolution); the grid then picks the column count whose rows fill the screen whole."),
        .init("library.file_name_captions", values: "true or false", default: "false", example: "true",
              "Caption a photo that has no caption in its metadata (EXIF, XMP or IPTC) with its file name, without the extension; off: no caption."),

        .init("cache.dir", values: "a folder, or `\"\"`", default: "\"\"", example: "\"/var/cache/photokiosk\"",
              "Where thumbnails are kept on disk; empty: `$XDG_CACHE_HOME/photokiosk` (`/var/cache/photokiosk` for the service)."),
        .init("cache.memory_mb", values: "MB, 16 to 65536", default: nil, note: "a sixteenth of the board's memory, 16 to 64 MB",
              example: "48",
              "Memory for decoded images, shared by thumbnails, album pages and tiles."),
        .init("cache.disk_mb", values: "MB, 0 to 10000000", default: "1024", example: "0",
              "Disk space for the thumbnail cache; 0 turns it off."),

        .init("display.backend", values: ConfigOptionReference.choices(DisplayBackend.self), default: "\"auto\"", example: "\"drm\"",
              "Which screen: `auto` tries DRM/KMS, then the framebuffer, then a headless screen."),
        .init("display.connector", values: "a connector name, or `\"auto\"`", default: "\"auto\"", example: "\"HDMI-A-1\"",
              "The output to use; `auto`: the first connected one (`photokiosk doctor` lists them)."),
        .init("display.mode", values: "`\"WIDTHxHEIGHT\"` (1 to 16384 each), or `\"auto\"`", default: "\"auto\"", example: "\"1280x800\"",
              "The screen mode; `auto`: the connector's preferred mode."),
        .init("display.rotation", values: "`0`, `90`, `180` or `270`", default: "0", example: "90",
              "Turns the picture clockwise, and the touches with it (a screen mounted upright or upside down)."),

        .init("input.backend", values: ConfigOptionReference.choices(InputBackend.self), default: "\"auto\"", example: "\"none\"",
              "Where touches come from: libinput on seat0, or none."),
        .init("input.devices", values: "a list of device nodes", default: "[]", example: "[\"/dev/input/event3\"]",
              "Input devices to open instead of every device of the seat."),
        .init("input.calibration", values: "6 numbers `[a, b, c, d, e, f]`, or `[]`", default: "[]", example: "[1, 0, 0, 0, 1, 0]",
              "Touch calibration matrix for every touch device, replacing the udev `LIBINPUT_CALIBRATION_MATRIX`; `[]`: the device's own."),

        .init("slideshow.idle_timeout", values: "seconds, 0 to 604800", default: "120", example: "300",
              "Time without a touch before the slideshow starts; 0: start in it."),
        .init("slideshow.interval", values: "seconds, 1 to 86400", default: "10", example: "30",
              "Time each photo shows."),
        .init("slideshow.order", values: ConfigOptionReference.choices(SlideshowOrder.self), default: "\"sequential\"", example: "\"shuffle\"",
              "The grid's order, or shuffled (every photo once before any repeats)."),
        .init("slideshow.transition", values: ConfigOptionReference.choices(Transition.self), default: "\"crossfade\"", example: "\"slide\"",
              "How one photo gives way to the next; `slide`: the next photo pushes the last one out."),
        .init("slideshow.transition_duration", values: "seconds, 0 to 30, shorter than the interval", default: "1.0", example: "2.5", "Length of the cross-fade or slide."),
        .init("slideshow.portrait_fill", values: ConfigOptionReference.choices(PortraitFill.self), default: "\"blur\"", example: "\"solid\"",
              "Beside an upright photo on a wide screen (and the reverse): the photo itself, enlarged and blurred; the background colour; or black."),
        .init("slideshow.background", values: "a colour `\"#rrggbb\"` or `\"#rgb\"`", default: "\"#000000\"", example: "\"#333\"",
              "Background colour of the slideshow."),
        .init("slideshow.ken_burns", values: "`true` or `false`", default: "false", example: "true",
              "A slow zoom (15 % over the photo's time on screen) towards a point in the middle of each photo; redraws every frame while on."),
        .init("slideshow.pair_portraits", values: "`true` or `false`", default: "false", example: "true",
              "Two upright photos side by side on a wide screen (two wide ones stacked on an upright screen)."),

        .init("overlay.clock", values: ConfigOptionReference.choices(OverlayPosition.self), default: "\"off\"", example: "\"top-right\"",
              "The time and today's date in the system's time zone, as its locale writes them."),
        .init("overlay.date_taken", values: ConfigOptionReference.choices(OverlayPosition.self), default: "\"off\"", example: "\"bottom-left\"",
              "When the photo was taken (EXIF DateTimeOriginal)."),
        .init("overlay.caption", values: ConfigOptionReference.choices(OverlayPosition.self), default: "\"off\"", example: "\"bottom-left\"",
              "The photo's caption: EXIF ImageDescription or XPTitle, XMP dc:title or dc:description, or the IPTC caption."),
        .init("overlay.place", values: ConfigOptionReference.choices(OverlayPosition.self), default: "\"off\"", example: "\"bottom-left\"",
              "The town nearest to where the photo was taken (EXIF GPS), from an offline table."),

        .init("schedule.blank", values: ConfigOptionReference.choices(BlankMethod.self), default: "\"dpms\"", example: "\"backlight\"",
              "How the screen is switched off: the output's power saving (HDMI), or `/sys/class/backlight` (the Raspberry Pi touch display)."),
        .init("schedule.wake_minutes", values: "minutes, 0 to 1440", default: "5", example: "10",
              "How long a touch lights a switched-off screen; 0: touches do not wake it."),
        .init("schedule.period.days", values: "a list of `\"mon\"` … `\"sun\"` or ranges like `\"mon-fri\"`", default: nil, note: "every day",
              example: "[\"mon-fri\"]",
              "In each `[[schedule.period]]`: the days the period starts on. No period by default: the screen is always on. `--schedule \"mon-fri 22:30-07:00\"` (repeatable) replaces the file's periods; `--no-schedule` ignores them."),
        .init("schedule.period.off", values: "`\"HH:MM\"` (24 h)", default: nil, note: "none: needed in each period",
              example: "\"22:30\"", "When the screen switches off."),
        .init("schedule.period.on", values: "`\"HH:MM\"` (24 h)", default: nil, note: "none: needed in each period",
              example: "\"07:00\"", "When it switches on again; earlier than `off`: the next morning."),

        .init("remote.listen", values: "`\"ADDRESS:PORT\"`, or `\"\"`", default: "\"\"", example: "\"0.0.0.0:8080\"",
              "Serves the phone page and JSON API there (`0.0.0.0:8080`: every network of this computer); empty: off."),
        .init("remote.token", values: "at least 16 of `A-Z a-z 0-9 - . _ ~ + / =`", default: "\"\"", example: "\"OgVIyrD3lMRNnXk4bstHg1Zh\"", "The secret every request needs; required with `listen`. A first install of the package writes a random one."),
        .init("remote.upload_folder", values: "a folder, or `\"\"`", default: "\"\"", example: "\"/var/lib/photokiosk/photos\"",
              "Where uploaded photos go; empty: the first of `library.folders`."),
        .init("remote.max_upload_mb", values: "MB, 1 to 4096", default: "64", example: "128",
              "Largest photo accepted."),
        .init("remote.reserve_mb", values: "MB, 0 to 1000000", default: "256", example: "512",
              "Disk space uploads never eat into."),

        .init("mqtt.url", values: "`\"mqtt://HOST[:PORT]\"` or `\"mqtts://HOST[:PORT]\"`, or `\"\"`", default: "\"\"", example: "\"mqtt://homeassistant.lan\"", "The MQTT broker (Home Assistant, fleets); port 1883, 8883 with TLS; empty: off."),
        .init("mqtt.username", values: "text", default: "\"\"", example: "\"frame\"",
              "The broker account, if the broker asks for one."),
        .init("mqtt.password", values: "text", default: "\"\"", example: "\"secret\"",
              "Its password; better in `password_file`."),
        .init("mqtt.password_file", values: "a file", default: "\"\"", example: "\"/etc/photokiosk/mqtt-password\"",
              "A file holding the password (one line), readable by root and the photokiosk group only."),
        .init("mqtt.id", values: "letters, digits, `-` and `_`", default: "\"\"", example: "\"hall\"",
              "This frame's name in topics (`photokiosk/ID/…`) and in Home Assistant; empty: the host name."),
        .init("mqtt.discovery_prefix", values: "a topic without wildcards", default: "\"homeassistant\"", example: "\"ha\"",
              "Home Assistant's discovery prefix."),
        .init("mqtt.ca_file", values: "a file, or `\"\"`", default: "\"\"", example: "\"/etc/photokiosk/ca.pem\"",
              "CA certificate that signed the broker's (mqtts:// only); empty: the system's."),
    ]
}

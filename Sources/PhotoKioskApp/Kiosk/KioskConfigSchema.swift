import Graphics
import Imaging

extension KioskConfig {
    /// Every option of config.toml, in the order of the reference: the one place an option is
    /// declared (see `ConfigOption` for what is derived from it).
    public static let schema: [ConfigOption] = [
        .choice("log_level", \.logLevel, flag: "--log-level", default: "\"info\"", example: "\"debug\"",
                "How much the log says; \"debug\" and \"trace\" add detail."),
        .bool("kiosk", \.kiosk, flag: "--kiosk", default: "false", example: "true",
              "Kiosk mode: no key or gesture quits the program (public displays, family frames)."),

        .textList("library.folders", \.library.folders, values: "a list of folders", flag: "--folder",
                  default: "[\"/var/lib/photokiosk/photos\"]", example: "[\"/media/photos\", \"/srv/photos\"]",
                  "Folders whose photos are shown (JPEG, PNG, HEIC/HEIF, AVIF and WebP), searched recursively. A folder that does not exist yet is watched for. When the default folder does not exist, the bundled sample photos are shown.",
                  check: { c in
                      c.library.folders.isEmpty ? "needs at least one folder"
                          : c.library.folders.contains(where: \.isEmpty) ? "contains an empty folder name" : nil
                  }),
        .choice("library.sort", \.library.sort, flag: "--sort", default: "\"name\"", example: "\"date\"",
                "Order of the grid: file name (natural order) or date taken (EXIF, else the file time), oldest first."),
        .wholeNumber("library.thumbnail_size", \.library.thumbnailSize, 32...2048, "points", flag: "--thumbnail-size",
                     default: "140", example: "200",
                     "Edge of a grid thumbnail in points (1/160 inch on a screen that reports its size, else sized from the resolution); the grid then picks the column count whose rows fill the screen whole."),
        .bool("library.file_name_captions", \.library.fileNameCaptions, flag: "--file-name-captions",
              default: "false", example: "true",
              "Caption a photo that has no caption in its metadata (EXIF, XMP or IPTC) with its file name, without the extension; off: no caption."),

        .text("cache.dir", \.cache.directory, values: "a folder, or `\"\"`", flag: "--cache-dir",
              default: "\"\"", example: "\"/var/cache/photokiosk\"",
              "Where thumbnails are kept on disk; empty: `$XDG_CACHE_HOME/photokiosk` (`/var/cache/photokiosk` for the service)."),
        .wholeNumber("cache.memory_mb", \.cache.memoryMB, 16...65536, "MB", flag: "--cache-memory-mb",
                     default: nil, note: "a sixteenth of the board's memory, 16 to 64 MB", example: "48",
                     "Memory for decoded images, shared by thumbnails, album pages and tiles."),
        .wholeNumber("cache.disk_mb", \.cache.diskMB, 0...10_000_000, "MB", remark: "0 turns the disk cache off",
                     flag: "--cache-disk-mb", default: "1024", example: "0",
                     "Disk space for the thumbnail cache; 0 turns it off."),

        .choice("display.backend", \.display.backend, flag: "--display", default: "\"auto\"", example: "\"drm\"",
                "Which screen: `auto` tries DRM/KMS, then the framebuffer, then a headless screen."),
        .text("display.connector", \.display.connector, values: "a connector name, or `\"auto\"`", flag: "--connector",
              default: "\"auto\"", example: "\"HDMI-A-1\"",
              "The output to use; `auto`: the first connected one (`photokiosk doctor` lists them)."),
        ConfigOption("display.mode", values: "`\"WIDTHxHEIGHT\"` (1 to 16384 each), or `\"auto\"`", flag: "--mode",
                     default: "\"auto\"", example: "\"1280x800\"",
                     "The screen mode; `auto`: the connector's preferred mode.",
                     set: { d, v, key, c throws(ConfigError) in
                         let text = try d.string(v, key)
                         if text.isEmpty || text == "auto" {
                             c.display.mode = nil
                             return
                         }
                         guard let mode = KioskConfig.DisplayMode(parsing: text) else {
                             throw d.invalid(v, key, "\"\(text)\" is not a mode like \"1920x1080\" (or \"auto\")")
                         }
                         c.display.mode = mode
                     }),
        ConfigOption("display.rotation", values: "`0`, `90`, `180` or `270`", flag: "--rotation",
                     default: "0", example: "90",
                     "Turns the picture clockwise, and the touches with it (a screen mounted upright or upside down).",
                     set: { d, v, key, c throws(ConfigError) in
                         let degrees = try d.integer(v, key)
                         guard let rotation = KioskConfig.Rotation(rawValue: degrees) else {
                             throw d.invalid(v, key, "\(degrees) is not one of 0, 90, 180, 270")
                         }
                         c.display.rotation = rotation
                     }),

        .choice("input.backend", \.input.backend, flag: "--input", default: "\"auto\"", example: "\"none\"",
                "Where touches come from: libinput on seat0, or none."),
        .textList("input.devices", \.input.devices, values: "a list of device nodes", flag: "--input-device",
                  default: "[]", example: "[\"/dev/input/event3\"]",
                  "Input devices to open instead of every device of the seat."),
        ConfigOption("input.calibration", values: "6 numbers `[a, b, c, d, e, f]`, or `[]`", flag: "--calibration",
                     default: "[]", example: "[1, 0, 0, 0, 1, 0]",
                     "Touch calibration matrix for every touch device, replacing the udev `LIBINPUT_CALIBRATION_MATRIX`; `[]`: the device's own.",
                     set: { d, v, key, c throws(ConfigError) in
                         let m = try d.numbers(v, key)
                         guard m.isEmpty || m.count == 6 else {
                             throw d.invalid(v, key, "needs exactly 6 numbers (a b c d e f), or [] for the device's own; got \(m.count)")
                         }
                         c.input.calibration = m.isEmpty ? nil : m
                     }),

        .number("slideshow.idle_timeout", \.slideshow.idleTimeout, 0...604_800, "seconds", remark: "0 starts in the slideshow",
                flag: "--idle-timeout", default: "120", example: "300",
                "Time without a touch before the slideshow starts; 0: start in it."),
        .number("slideshow.interval", \.slideshow.interval, 1...86_400, "seconds", flag: "--interval",
                default: "10", example: "30", "Time each photo shows."),
        .choice("slideshow.order", \.slideshow.order, flag: "--order", default: "\"sequential\"", example: "\"shuffle\"",
                "The grid's order, or shuffled (every photo once before any repeats)."),
        .choice("slideshow.transition", \.slideshow.transition, flag: "--transition", default: "\"crossfade\"",
                example: "\"slide\"",
                "How one photo gives way to the next; `slide`: the next photo pushes the last one out."),
        .number("slideshow.transition_duration", \.slideshow.transitionDuration, 0...30, "seconds",
                also: ("shorter than the interval", { c in
                    c.slideshow.transition != .none && c.slideshow.transitionDuration >= c.slideshow.interval
                        ? "\(c.slideshow.transitionDuration) s must be shorter than slideshow.interval (\(c.slideshow.interval) s)"
                        : nil
                }),
                flag: "--transition-duration", default: "1.0", example: "2.5", "Length of the cross-fade or slide."),
        .choice("slideshow.portrait_fill", \.slideshow.portraitFill, flag: "--portrait-fill", default: "\"blur\"",
                example: "\"solid\"",
                "Beside an upright photo on a wide screen (and the reverse): the photo itself, enlarged and blurred; the background colour; or black."),
        ConfigOption("slideshow.background", values: "a colour `\"#rrggbb\"` or `\"#rgb\"`", flag: "--background",
                     default: "\"#000000\"", example: "\"#333\"", "Background colour of the slideshow.",
                     set: { d, v, key, c throws(ConfigError) in
                         let text = try d.string(v, key)
                         guard let color = Color(hexString: text) else {
                             throw d.invalid(v, key, "\"\(text)\" is not a colour like \"#000000\" or \"#333\"")
                         }
                         c.slideshow.background = color
                     }),
        .number("slideshow.clip_seconds", \.slideshow.clipSeconds, 0...3600, "seconds", remark: "0 shows clips as still pictures",
                flag: "--clip-seconds", default: "30", example: "60",
                "The longest a video clip plays (muted) before the next photo; a shorter clip loops until the interval has passed."),
        .bool("slideshow.play_motion", \.slideshow.playsMotion, flag: "--play-motion", default: "true", example: "false",
              "A Live Photo or Motion Photo plays its motion once (muted) as its slide comes in, then stays as the photo; not with `ken_burns`."),
        .bool("slideshow.ken_burns", \.slideshow.kenBurns, flag: "--ken-burns", default: "false", example: "true",
              "A slow zoom (15 % over the photo's time on screen) towards a point in the middle of each photo; redraws every frame while on."),
        .bool("slideshow.pair_portraits", \.slideshow.pairPortraits, flag: "--pair-portraits", default: "false",
              example: "true",
              "Two upright photos side by side on a wide screen (two wide ones stacked on an upright screen)."),

        .choice("overlay.clock", \.overlay.clock, flag: "--overlay-clock", default: "\"off\"", example: "\"top-right\"",
                "The time and today's date in the system's time zone, as its locale writes them."),
        .choice("overlay.date_taken", \.overlay.dateTaken, flag: "--overlay-date-taken", default: "\"off\"",
                example: "\"bottom-left\"", "When the photo was taken (EXIF DateTimeOriginal)."),
        .choice("overlay.caption", \.overlay.caption, flag: "--overlay-caption", default: "\"off\"",
                example: "\"bottom-left\"",
                "The photo's caption: EXIF ImageDescription or XPTitle, XMP dc:title or dc:description, or the IPTC caption."),
        .choice("overlay.place", \.overlay.place, flag: "--overlay-place", default: "\"off\"", example: "\"bottom-left\"",
                "The town nearest to where the photo was taken (EXIF GPS), from an offline table."),

        .choice("schedule.blank", \.schedule.blankMethod, flag: "--blank", default: "\"dpms\"", example: "\"backlight\"",
                "How the screen is switched off: the output's power saving (HDMI), or `/sys/class/backlight` (the Raspberry Pi touch display)."),
        .wholeNumber("schedule.wake_minutes", \.schedule.wakeMinutes, 0...1440, "minutes",
                     remark: "0 means touches do not wake the screen", flag: "--wake-minutes", default: "5", example: "10",
                     "How long a touch lights a switched-off screen; 0: touches do not wake it."),
        .periodKey("days", values: "a list of `\"mon\"` … `\"sun\"` or ranges like `\"mon-fri\"`", note: "every day",
                   example: "[\"mon-fri\"]",
                   "In each `[[schedule.period]]`: the days the period starts on. No period by default: the screen is always on. `--schedule \"mon-fri 22:30-07:00\"` (repeatable) replaces the file's periods; `--no-schedule` ignores them."),
        .periodKey("off", values: "`\"HH:MM\"` (24 h)", note: "none: needed in each period",
                   example: "\"22:30\"", "When the screen switches off."),
        .periodKey("on", values: "`\"HH:MM\"` (24 h)", note: "none: needed in each period",
                   example: "\"07:00\"", "When it switches on again; earlier than `off`: the next morning."),

        .text("presence.chip", \.presence.chip, values: "a GPIO chip (`\"/dev/gpiochip0\"` or `\"gpiochip0\"`), or `\"\"`",
              flag: "--presence-chip", default: "\"\"", example: "\"gpiochip0\"",
              "The GPIO chip of a motion sensor (a PIR module); empty: no sensor. `photokiosk doctor` checks the line.",
              check: { c in
                  guard let chip = c.presence.chip, chip.contains(where: { $0 == " " || $0 == "\0" }) else { return nil }
                  return "\"\(chip)\" is not a device name"
              }),
        .wholeNumber("presence.line", \.presence.line, 0...511, "a line offset", flag: "--presence-line",
                     default: "0", example: "17", "The sensor's line on that chip (on a Pi: the GPIO number, e.g. 17 for pin 11)."),
        .choice("presence.active_level", \.presence.activeLevel, flag: "--presence-active-level", default: "\"high\"",
                example: "\"low\"", "The level the sensor drives while it sees motion."),
        .wholeNumber("presence.timeout", \.presence.timeout, 5...86_400, "seconds", flag: "--presence-timeout",
                     default: "600", example: "300",
                     "Time without motion (or a touch) before the screen blanks; counted from the start, so a room that stays empty goes dark."),
        .bool("presence.wake_during_schedule", \.presence.wakesDuringSchedule, flag: "--presence-wake-during-schedule",
              default: "false", example: "true",
              "Motion also wakes the screen while the schedule has it off (at night); off: the schedule wins and only a touch wakes it."),

        .bool("cec.enabled", \.cec.enabled, flag: "--cec", default: "false", example: "true",
              "Switch the TV with the screen over HDMI-CEC: standby when the screen blanks (schedule, idle, presence), on and this frame's input when it wakes. A TV switched off with its own remote stays off until the frame's next wake. `photokiosk doctor` shows the adapter and the TV's power."),
        .text("cec.device", \.cec.device, values: "a CEC adapter (`\"/dev/cec0\"` or `\"cec0\"`), or `\"\"`",
              flag: "--cec-device", default: "\"\"", example: "\"cec1\"",
              "The CEC adapter; empty: the one of the HDMI output the frame draws on (the kernel links them from Linux 5.10; on a Pi under full KMS each HDMI port has its own), else the only one.",
              check: { c in
                  guard let device = c.cec.device, device.contains(where: { $0 == " " || $0 == "\0" }) else { return nil }
                  return "\"\(device)\" is not a device name"
              }),
        .bool("cec.standby", \.cec.standby, flag: "--cec-standby", default: "true", example: "false",
              "Put the TV to standby when the screen blanks (not when another input is being watched, nor when its owner already switched it off)."),
        .choice("cec.power_on", \.cec.powerOn, flag: "--cec-power-on", default: "\"image\"", example: "\"text\"",
                "What wakes the TV with the screen: <Image View On>, <Text View On>, or `none` (only <Active Source>, which switches a TV that is on to this input)."),

        .bool("sound.clips", \.sound.clips, flag: "--clip-sound", default: "false", example: "true",
              "Video clips in the album, and a Live Photo's motion held down, play their sound (through ALSA); the slideshow always plays clips muted."),
        .text("sound.device", \.sound.device, values: "an ALSA device name (letters, digits and `_ - . : , =`)",
              flag: "--sound-device", default: "\"default\"", example: "\"hdmi:CARD=vc4hdmi0,DEV=0\"",
              "Where the sound plays: `default`, or a device `aplay -L` lists (on a Pi: the HDMI port the screen is on, or the headphone jack).",
              check: { c in ClipSound.problem(with: c.sound.device).map { "\"\(c.sound.device)\" \($0)" } }),

        ConfigOption("remote.listen", values: "`\"ADDRESS:PORT\"`, or `\"\"`", flag: "--remote-listen",
                     default: "\"\"", example: "\"0.0.0.0:8080\"",
                     "Serves the phone page and JSON API there (`0.0.0.0:8080`: every network of this computer); empty: off.",
                     set: { d, v, key, c throws(ConfigError) in
                         let text = try d.string(v, key)
                         if text.isEmpty {
                             c.remote.listen = nil
                             return
                         }
                         guard let address = KioskConfig.ListenAddress(parsing: text) else {
                             throw d.invalid(v, key, "\"\(text)\" \(KioskConfig.ListenAddress.formatHint)")
                         }
                         c.remote.listen = address
                     }),
        .text("remote.token", \.remote.token, values: "at least 16 of `A-Z a-z 0-9 - . _ ~ + / =`", flag: "--remote-token",
              default: "\"\"", example: "\"OgVIyrD3lMRNnXk4bstHg1Zh\"",
              "The secret every request needs; required with `listen`. A first install of the package writes a random one.",
              check: { c in c.remote.listen == nil ? nil : Remote.tokenProblem(c.remote.token) }),
        .text("remote.upload_folder", \.remote.uploadFolder, values: "a folder, or `\"\"`", flag: "--remote-upload-folder",
              default: "\"\"", example: "\"/var/lib/photokiosk/photos\"",
              "Where uploaded photos go; empty: the first of `library.folders`."),
        .wholeNumber("remote.max_upload_mb", \.remote.maxUploadMB, 1...4096, "MB", flag: "--remote-max-upload-mb",
                     default: "64", example: "128", "Largest photo accepted."),
        .wholeNumber("remote.reserve_mb", \.remote.reserveMB, 0...1_000_000, "MB", flag: "--remote-reserve-mb",
                     default: "256", example: "512", "Disk space uploads never eat into."),

        .sourceKey("name", values: "letters, digits, `-` and `_`", note: "none: needed in each source", example: "\"nas\"",
                   "In each `[[source]]` (none by default): the source's name; its photos land in `/var/lib/photokiosk/sources/NAME` (the state folder's `sources`), which is part of the library. Synced by `photokiosk-sync.timer` with rclone, not by the kiosk: no command-line flag; [sources.md](sources.md) sets one up."),
        .sourceKey("remote", values: "`\"REMOTE:PATH\"`, a remote of `/etc/photokiosk/rclone.conf`", note: "none: needed in each source",
                   example: "\"nextcloud:Photos/Frame\"",
                   "Where the photos are: a remote configured in rclone's file (which alone holds addresses and passwords, readable by the photokiosk user only) and a folder on it."),
        .sourceKey("interval", values: "minutes, 5 to 10080", note: "`60`", example: "15",
                   "Time between syncs; after a failure the next try comes 5 minutes later, then twice as long each time, up to a day."),
        .sourceKey("quota_mb", values: "MB, 0 to 10000000", note: "`0` (no limit)", example: "2048",
                   "Disk space the source may take; over it, the newest photos by date taken that fit are kept, and the status says so."),

        .text("mqtt.url", \.mqtt.url, values: "`\"mqtt://HOST[:PORT]\"` or `\"mqtts://HOST[:PORT]\"`, or `\"\"`",
              flag: "--mqtt-url", default: "\"\"", example: "\"mqtt://homeassistant.lan\"",
              "The MQTT broker (Home Assistant, fleets); port 1883, 8883 with TLS; empty: off.",
              check: { c in
                  guard let url = c.mqtt.url, MQTTAddress(parsing: url) == nil else { return nil }
                  return "\"\(url)\" is not mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"
              }),
        .text("mqtt.username", \.mqtt.username, values: "text", flag: "--mqtt-username", default: "\"\"",
              example: "\"frame\"", "The broker account, if the broker asks for one."),
        .text("mqtt.password", \.mqtt.password, values: "text", flag: "--mqtt-password", default: "\"\"",
              example: "\"secret\"", "Its password; better in `password_file`."),
        .text("mqtt.password_file", \.mqtt.passwordFile, values: "a file", flag: "--mqtt-password-file", default: "\"\"",
              example: "\"/etc/photokiosk/mqtt-password\"",
              "A file holding the password (one line), readable by root and the photokiosk group only.",
              check: { c in
                  c.mqtt.password != nil && c.mqtt.passwordFile != nil ? "give password or password_file, not both" : nil
              }),
        .text("mqtt.id", \.mqtt.id, values: "letters, digits, `-` and `_`", flag: "--mqtt-id", default: "\"\"",
              example: "\"hall\"",
              "This frame's name in topics (`photokiosk/ID/…`) and in Home Assistant; empty: the host name.",
              check: { c in
                  guard let id = c.mqtt.id, !MQTT.isTopicWord(id) else { return nil }
                  return "\"\(id)\" must be letters, digits, \"-\" or \"_\" (it is part of every topic)"
              }),
        .text("mqtt.discovery_prefix", \.mqtt.discoveryPrefix, values: "a topic without wildcards",
              flag: "--mqtt-discovery-prefix", default: "\"homeassistant\"", example: "\"ha\"",
              "Home Assistant's discovery prefix.",
              check: { c in
                  MQTT.isTopicPath(c.mqtt.discoveryPrefix) ? nil
                      : "\"\(c.mqtt.discoveryPrefix)\" must be a topic without wildcards (+, #)"
              }),
        .text("mqtt.ca_file", \.mqtt.caFile, values: "a file, or `\"\"`", flag: "--mqtt-ca-file", default: "\"\"",
              example: "\"/etc/photokiosk/ca.pem\"",
              "CA certificate that signed the broker's (mqtts:// only); empty: the system's."),

        .bool("syncthing.enabled", \.syncthing.enabled, flag: "--syncthing", default: "false", example: "true",
              "Shows the state of this computer's Syncthing (the phone's photos arriving, docs/syncthing.md) on the phone page and in `photokiosk doctor`."),
        .text("syncthing.api_address", \.syncthing.apiAddress, values: "`\"http://127.0.0.1:PORT\"` (or `localhost`, `[::1]`)",
              flag: "--syncthing-api-address", default: "\"http://127.0.0.1:8384\"", example: "\"http://127.0.0.1:8385\"",
              "Syncthing's GUI and REST address; on this computer only, since the API key travels in plain HTTP.",
              check: { c in
                  SyncthingAPIAddress(parsing: c.syncthing.apiAddress) != nil ? nil
                      : "\"\(c.syncthing.apiAddress)\" is not http://127.0.0.1:PORT, http://localhost:PORT or http://[::1]:PORT"
              }),
        .text("syncthing.api_key_file", \.syncthing.apiKeyFile, values: "a file, or `\"\"`", flag: "--syncthing-api-key-file",
              default: "\"\"", example: "\"/etc/photokiosk/syncthing-api-key\"",
              "A file holding Syncthing's API key (one line), readable by the photokiosk user only; the key is never shown or logged. Needed with `enabled`.",
              check: { c in c.syncthing.enabled && c.syncthing.apiKeyFile == nil ? "is needed when syncthing.enabled is true" : nil }),
        .text("syncthing.folder_id", \.syncthing.folderID, values: "a Syncthing folder ID", flag: "--syncthing-folder-id",
              default: "\"\"", example: "\"phone-camera\"",
              "The ID of the folder the phone sends its photos to (not its label). Needed with `enabled`.",
              check: { c in
                  guard let id = c.syncthing.folderID else {
                      return c.syncthing.enabled ? "is needed when syncthing.enabled is true" : nil
                  }
                  return id.utf8.count <= 256 && id.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
                      ? nil : "\"\(id)\" must be printable ASCII without spaces, at most 256 characters"
              }),
    ]

    /// Lists of tables, read a table at a time (their keys are rows of `schema`, without setters).
    /// A list without a flag is not the kiosk's to override (sources are the sync unit's).
    static let tableLists: [(key: String, flag: String?, set: ConfigOption.Setter)] = [
        ("schedule.period", "--schedule", { d, v, key, c throws(ConfigError) in c.schedule.periods = try d.periods(v, key) }),
        ("source", nil, { d, v, key, c throws(ConfigError) in c.sources = try d.sources(v, key) }),
    ]

    /// The setter of each option the file may set, by dotted key.
    static let setters: [String: ConfigOption.Setter] = {
        var result: [String: ConfigOption.Setter] = [:]
        for option in schema { result[option.key] = option.set }
        for list in tableLists { result[list.key] = list.set }
        return result
    }()

    /// Every name as written in the file, by table ("" for the top level; tables are names too),
    /// for unknown-key suggestions.
    static let knownKeys: [String: [String]] = {
        var result: [String: [String]] = [:]
        for key in schema.map(\.key) + tableLists.map(\.key) {
            var parts = key.split(separator: ".").map(String.init)
            while let name = parts.popLast() {
                let table = parts.joined(separator: ".")
                if !result[table, default: []].contains(name) { result[table, default: []].append(name) }
            }
        }
        return result
    }()
}

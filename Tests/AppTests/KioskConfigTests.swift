import Graphics
@testable import PhotoKioskApp
import Testing

@Suite struct KioskConfigTests {
    func parse(_ text: String) throws -> KioskConfig {
        try KioskConfig.parse(text, file: "test.toml")
    }

    func error(_ text: String) -> ConfigError? { configRefusal(text, file: "test.toml") }

    @Test func emptyFileGivesDefaults() throws {
        let c = try parse("")
        #expect(c == KioskConfig())
        #expect(c.library.folders == ["/var/lib/photokiosk/photos"])
        #expect(c.slideshow.idleTimeout == 120)
        #expect(c.display.rotation == .none)
        #expect(c.schedule.periods.isEmpty)
    }

    @Test func missingDefaultFileGivesDefaultsButNamedFileMustExist() throws {
        let path = "/nonexistent-photokiosk-test/config.toml"
        #expect(try KioskConfig.load(path: path, mustExist: false) == KioskConfig())
        #expect(throws: ConfigError.self) { try KioskConfig.load(path: path, mustExist: true) }
    }

    @Test func everyOptionIsRead() throws {
        let c = try parse("""
            log_level = "debug"
            kiosk = true
            [library]
            folders = ["/a", "/b c"]
            sort = "date"
            thumbnail_size = 180
            [cache]
            dir = "/tmp/cache"
            memory_mb = 64
            disk_mb = 0
            [display]
            backend = "fbdev"
            connector = "HDMI-A-2"
            mode = "1280x800"
            rotation = 270
            [input]
            backend = "none"
            devices = ["/dev/input/event3"]
            calibration = [0, 1, 0, -1, 0, 1.0]
            [slideshow]
            idle_timeout = 0
            interval = 7.5
            order = "shuffle"
            transition = "none"
            transition_duration = 0.25
            portrait_fill = "solid"
            background = "#123"
            [schedule]
            blank = "backlight"
            wake_minutes = 2
            [[schedule.period]]
            days = ["sat", "mon-wed"]
            off = "9:15"
            on = "17:45"
            [[schedule.period]]
            off = "23:00"
            on = "06:00"
            """)
        var e = KioskConfig()
        e.logLevel = .debug
        e.kiosk = true
        e.library.folders = ["/a", "/b c"]
        e.library.sort = .date
        e.library.thumbnailSize = 180
        e.cache.directory = "/tmp/cache"
        e.cache.memoryMB = 64
        e.cache.diskMB = 0
        e.display.backend = .fbdev
        e.display.connector = "HDMI-A-2"
        e.display.mode = .init(width: 1280, height: 800)
        e.display.rotation = .threeQuarters
        e.input.backend = .none
        e.input.devices = ["/dev/input/event3"]
        e.input.calibration = [0, 1, 0, -1, 0, 1]
        e.slideshow.idleTimeout = 0
        e.slideshow.interval = 7.5
        e.slideshow.order = .shuffle
        e.slideshow.transition = .none
        e.slideshow.transitionDuration = 0.25
        e.slideshow.portraitFill = .solid
        e.slideshow.background = Color(rgb: 0x112233)
        e.schedule.blankMethod = .backlight
        e.schedule.wakeMinutes = 2
        e.schedule.periods = [
            SchedulePeriod(days: [.saturday, .monday, .tuesday, .wednesday],
                           off: TimeOfDay(hour: 9, minute: 15), on: TimeOfDay(hour: 17, minute: 45)),
            SchedulePeriod(off: TimeOfDay(hour: 23, minute: 0), on: TimeOfDay(hour: 6, minute: 0)),
        ]
        #expect(c == e)
    }

    @Test func autoAndEmptyMeanChooseForMe() throws {
        let c = try parse("""
            [display]
            connector = "auto"
            mode = "auto"
            [cache]
            dir = ""
            [input]
            calibration = []
            """)
        #expect(c.display.connector == nil)
        #expect(c.display.mode == nil)
        #expect(c.cache.directory == nil)
        #expect(c.input.calibration == nil)
    }

    @Test func dottedKeysAndInlineTablesAreTOML() throws {
        let c = try parse("""
            display.rotation = 90
            slideshow = { interval = 20, order = "shuffle" }
            """)
        #expect(c.display.rotation == .quarter)
        #expect(c.slideshow.interval == 20)
        #expect(c.slideshow.order == .shuffle)
    }

    @Test func exampleConfigIsDefaultsPlusDocumentedExamples() throws {
        let url = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let path = "/" + url + "/deploy/config.toml"
        let c = try KioskConfig.load(path: path, mustExist: true)
        var expected = KioskConfig()
        expected.schedule.periods = [
            SchedulePeriod(days: [.sunday, .monday, .tuesday, .wednesday, .thursday],
                           off: TimeOfDay(hour: 22, minute: 30), on: TimeOfDay(hour: 7, minute: 0)),
            SchedulePeriod(days: [.friday, .saturday],
                           off: TimeOfDay(hour: 23, minute: 30), on: TimeOfDay(hour: 9, minute: 0)),
        ]
        // The example source, commented out on install like the periods.
        expected.sources = [KioskConfig.Source(name: "nextcloud", remote: "nextcloud:Photos/Frame")]
        #expect(c == expected)
    }

    // MARK: Errors: one message with file, line and option

    @Test func syntaxErrorNamesLine() throws {
        let e = try #require(error("""
            [display]
            rotation = 90
            mode = "1280x800
            """))
        #expect(e.kind == .syntax)
        #expect(e.line == 3)
        #expect(e.file == "test.toml")
        #expect(e.description.hasPrefix("test.toml:3: "))
    }

    @Test(arguments: [
        ("a = [1,\n2", 2),                  // unclosed array
        ("[display\nx = 1", 1),             // unclosed header
        ("kiosk = yes", 1),                 // bare word
        ("\n\nkiosk = true false", 3),      // two values
        ("log_level = \"a\\qb\"", 1),       // bad escape
        ("kiosk = true\nkiosk = false", 2), // duplicate key
        ("[cache]\n[cache]", 2),            // duplicate table
        ("[schedule.period]\noff = 07:00", 2), // unquoted time
        ("x = \"\"\"\nmulti\"\"\"", 1),     // multi-line string
        ("n = 007", 1),                     // leading zero
    ])
    func syntaxErrors(text: String, line: Int) throws {
        // Every mistake is reported; the syntax error is among them (a table left without its
        // bad line may be a mistake of its own, reported too).
        let e = try #require(error(text)?.allMistakes.first { $0.kind == .syntax })
        #expect(e.line == line)
    }

    @Test func unknownKeySuggestsTheNearestName() throws {
        let e = try #require(error("""
            [slideshow]
            interval = 5

            intervall = 5
            """))
        #expect(e.kind == .unknownKey(suggestion: "slideshow.interval"))
        #expect(e.line == 4)
        #expect(e.key == "slideshow.intervall")
        #expect(e.description == "test.toml:4: slideshow.intervall: unknown option; did you mean slideshow.interval?")
    }

    @Test func unknownKeyInTheWrongTableNamesTheRightOne() throws {
        let e = try #require(error("kiosk = true\nrotation = 90\n[display]\n"))
        #expect(e.kind == .unknownKey(suggestion: "display.rotation"))
        #expect(e.line == 2)
    }

    @Test func unknownTableAndUnrelatedKey() throws {
        let e = try #require(error("[library]\nfolders = [\"/x\"]\n[network]\nport = 1"))
        #expect(e.kind == .unknownKey(suggestion: nil))
        #expect(e.key == "network")
        #expect(e.line == 3)
        let f = try #require(error("[cache]\nzzzzzz = 1"))
        #expect(f.kind == .unknownKey(suggestion: nil))
        #expect(f.line == 2)
    }

    /// A value of the wrong type, or of the right type but not allowed: the mistake's kind, line
    /// and option.
    @Test(arguments: [
        ("kiosk = \"yes\"", 1, "kiosk", ConfigError.Kind.wrongType),
        ("[library]\nthumbnail_size = 256.0", 2, "library.thumbnail_size", .wrongType),
        ("[library]\nfolders = \"/photos\"", 2, "library.folders", .wrongType),
        ("[library]\nfolders = [\n\"/a\",\n3]", 4, "library.folders", .wrongType),
        ("[display]\nrotation = \"90\"", 2, "display.rotation", .wrongType),
        ("[slideshow]\n\ninterval = \"10\"", 3, "slideshow.interval", .wrongType),
        ("[input]\ncalibration = [1, 0, 0, 0, 1, \"0\"]", 2, "input.calibration", .wrongType),
        ("display = 3", 1, "display", .wrongType),
        ("[schedule.period]\noff = \"22:00\"\non = \"07:00\"", 1, "schedule.period", .wrongType),
        ("[schedule]\nwake_minutes = true", 2, "schedule.wake_minutes", .wrongType),
        ("[display]\nrotation = 45", 2, "display.rotation", .invalidValue),
        ("[display]\nmode = \"big\"", 2, "display.mode", .invalidValue),
        ("[library]\nthumbnail_size = 8", 2, "library.thumbnail_size", .invalidValue),
        ("[library]\nfolders = []", 2, "library.folders", .invalidValue),
        ("[cache]\nmemory_mb = -5", 2, "cache.memory_mb", .invalidValue),
        ("[slideshow]\ninterval = 0", 2, "slideshow.interval", .invalidValue),
        ("[slideshow]\nidle_timeout = -1", 2, "slideshow.idle_timeout", .invalidValue),
        ("[slideshow]\ninterval = 5\n\ntransition_duration = 6", 4, "slideshow.transition_duration", .invalidValue),
        ("[slideshow]\nbackground = \"black\"", 2, "slideshow.background", .invalidValue),
        ("[slideshow]\norder = \"random\"", 2, "slideshow.order", .invalidValue),
        ("[input]\ncalibration = [1, 0, 0]", 2, "input.calibration", .invalidValue),
        ("[schedule]\nwake_minutes = 5000", 2, "schedule.wake_minutes", .invalidValue),
        ("[[schedule.period]]\ndays = [\"mon\", \"fry\"]\noff = \"22:00\"\non = \"07:00\"", 2, "schedule.period.days", .invalidValue),
        ("[[schedule.period]]\noff = \"25:00\"\non = \"07:00\"", 2, "schedule.period.off", .invalidValue),
        ("[[schedule.period]]\noff = \"07:00\"\non = \"07:00\"", 1, "schedule.period", .invalidValue),
    ])
    func mistakesNameTheirKindLineAndOption(text: String, line: Int, key: String, kind: ConfigError.Kind) throws {
        let e = try #require(error(text))
        #expect(e.kind == kind)
        #expect(e.line == line)
        #expect(e.key == key)
    }

    @Test func invalidChoiceSuggestsTheNearestChoice() throws {
        let e = try #require(error("[slideshow]\ntransition = \"crosfade\""))
        #expect(e.message.contains("did you mean \"crossfade\"?"))
        #expect(e.message.contains("\"none\""))
    }

    @Test func missingTimeInPeriodNamesItsHeader() throws {
        let e = try #require(error("[schedule]\nblank = \"dpms\"\n\n[[schedule.period]]\noff = \"22:00\""))
        #expect(e.kind == .missingKey)
        #expect(e.line == 4)
        #expect(e.key == "schedule.period.on")
    }

    @Test func firstMistakeInTheFileIsReported() throws {
        let e = try #require(error("[display]\nrotation = 45\n[slideshow]\norder = 3"))
        #expect(e.line == 2)
    }

    // MARK: Command-line overrides

    @Test func overridesReplaceOnlyWhatIsGiven() throws {
        let file = try parse("[slideshow]\ninterval = 20\norder = \"shuffle\"\n[display]\nrotation = 90")
        var o = KioskConfigOverrides()
        o.interval = 30
        o.rotation = .half
        o.folders = ["/mnt/usb"]
        o.schedule = [try #require(SchedulePeriod(parsing: "mon-fri 22:30-07:00"))]
        o.background = Color(hexString: "#ff0000")
        o.calibration = KioskConfigOverrides.parseCalibration("0 -1 1, 1 0 0")
        let c = try file.applying(o)
        #expect(c.slideshow.interval == 30)
        #expect(c.slideshow.order == .shuffle)
        #expect(c.display.rotation == .half)
        #expect(c.library.folders == ["/mnt/usb"])
        #expect(c.schedule.periods.count == 1)
        #expect(c.slideshow.background == .red)
        #expect(c.input.calibration == [0, -1, 1, 1, 0, 0])
        #expect(try file.applying(KioskConfigOverrides()) == file)
    }

    @Test func overrideErrorsNameTheFlag() throws {
        var o = KioskConfigOverrides()
        o.interval = 0.5
        #expect(throws: ConfigError(kind: .invalidValue, file: "command line", line: nil, key: "--interval",
                                    message: "0.5 is out of range (1.0 to 86400.0 seconds)")) {
            try KioskConfig().applying(o)
        }
        // A flag can make another option of the file invalid.
        var p = KioskConfigOverrides()
        p.interval = 1
        let refusal = #expect(throws: ConfigError.self, "a 1 s transition with a 1 s interval") { try KioskConfig().applying(p) }
        #expect(refusal?.key == "--transition-duration")
    }

    @Test func commandLineValueParsers() {
        #expect(KioskConfig.DisplayMode(parsing: "800X480") == .init(width: 800, height: 480))
        #expect(KioskConfig.DisplayMode(parsing: "800x") == nil)
        #expect(KioskConfigOverrides.parseCalibration("1 0 0 0 1") == nil)
        #expect(KioskConfigOverrides.parseCalibration("1 0 0 0 1 x") == nil)
        #expect(Color(hexString: "#0a0B0c") == Color(red: 10, green: 11, blue: 12))
        #expect(Color(hexString: "0a0b0c") == nil)
        let weekend = SchedulePeriod(parsing: "fri-mon 23:00-08:30")
        #expect(weekend?.days == [.friday, .saturday, .sunday, .monday])
        #expect(weekend?.off == TimeOfDay(hour: 23, minute: 0))
        #expect(SchedulePeriod(parsing: "daily 22:00-06:00")?.days.count == 7)
        #expect(SchedulePeriod(parsing: "someday 22:00-06:00") == nil)
        #expect(SchedulePeriod(parsing: "mon 22:00") == nil)
        #expect(SchedulePeriod(parsing: "mon 22:00-22:00") == nil)
        for flag in KioskConfigOverrides.flagNames.values { #expect(flag.hasPrefix("--")) }
    }
}

/// The mistake a config file's text is refused with, or nil when it parses.
func configRefusal(_ text: String, file: String) -> ConfigError? {
    do {
        _ = try KioskConfig.parse(text, file: file)
        return nil
    } catch {
        return error
    }
}

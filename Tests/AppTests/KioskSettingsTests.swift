import Testing
import Imaging
import Logging
@testable import PhotoKioskApp
import SystemAccess
import TestSupport

/// Settings from the phone: checked by the config file's own rules (same words), laid over
/// config.toml, kept in the settings file across restarts, written atomically, and a broken
/// file costs the settings, never the start.
@Suite struct KioskSettingsTests {
    func table(_ json: String) throws -> TOMLTable { try JSONReader.table(from: Array(json.utf8)) }

    func refusal(_ json: String, over base: KioskConfig = KioskConfig()) throws -> ConfigError? {
        do {
            _ = try base.applying(settings: try table(json), source: "request")
            return nil
        } catch let error as ConfigError {
            return error
        }
    }

    func fileRefusal(_ toml: String) -> ConfigError? { configRefusal(toml, file: "config.toml") }

    @Test func aValueConfigTomlRefusesIsRefusedInTheSameWords() throws {
        let cases: [(json: String, toml: String)] = [
            (#"{"slideshow": {"interval": 0}}"#, "[slideshow]\ninterval = 0"),
            (#"{"slideshow": {"order": "random"}}"#, "[slideshow]\norder = \"random\""),
            (#"{"slideshow": {"ken_burns": "yes"}}"#, "[slideshow]\nken_burns = \"yes\""),
            (#"{"overlay": {"clock": "top-middle"}}"#, "[overlay]\nclock = \"top-middle\""),
            (#"{"schedule": {"wake_minutes": 5000}}"#, "[schedule]\nwake_minutes = 5000"),
            (#"{"schedule": {"period": [{"days": ["mon-fru"], "off": "22:00", "on": "07:00"}]}}"#,
             "[[schedule.period]]\ndays = [\"mon-fru\"]\noff = \"22:00\"\non = \"07:00\""),
            (#"{"schedule": {"period": [{"days": ["sat"], "off": "25:00", "on": "07:00"}]}}"#,
             "[[schedule.period]]\ndays = [\"sat\"]\noff = \"25:00\"\non = \"07:00\""),
            (#"{"library": {"sort": "size"}}"#, "[library]\nsort = \"size\""),
            (#"{"kiosk": 1}"#, "kiosk = 1"),
        ]
        for c in cases {
            let fromPhone = try #require(try refusal(c.json), "\(c.json) must be refused")
            let fromFile = try #require(fileRefusal(c.toml), "\(c.toml) must be refused by the file")
            #expect(fromPhone.key == fromFile.key)
            #expect(fromPhone.message == fromFile.message, "one set of rules: \(c.json)")
            #expect(fromPhone.kind == fromFile.kind)
        }
        let range = try #require(try refusal(#"{"slideshow": {"interval": 0}}"#))
        #expect(range.message == "0.0 is out of range (1.0 to 86400.0 seconds)")
    }

    @Test func aSettingCanMakeAnotherOptionWrongAndThatIsReported() throws {
        var base = KioskConfig()
        base.slideshow.transitionDuration = 2
        let error = try #require(try refusal(#"{"slideshow": {"interval": 1.5}}"#, over: base))
        #expect(error.key == "slideshow.transition_duration")
        #expect(error.message.contains("must be shorter than slideshow.interval (1.5 s)"))
    }

    @Test func onlyTheSettingsCanBeChangedAndEveryMistakeIsReported() throws {
        let error = try #require(try refusal(#"{"display": {"rotation": 90}, "slideshow": {"idle_timeout": 5, "interval": 3}, "log_level": "debug"}"#))
        #expect(error.allMistakes.map(\.key) == ["display", "slideshow.idle_timeout", "log_level"])
        #expect(error.message.contains("is not a setting the remote page can change"))
        let two = try #require(try refusal(#"{"slideshow": {"interval": -1, "transition": "wipe"}}"#))
        #expect(Set(two.allMistakes.compactMap(\.key)).isSuperset(of: ["slideshow.interval", "slideshow.transition"]))
    }

    @Test func settingsAreLaidOverTheConfigFile() throws {
        var base = try KioskConfig.parse("""
            [slideshow]
            interval = 30
            transition = "slide"
            [overlay]
            place = "top-left"
            """, file: "config.toml")
        base.library.folders = ["/photos"]
        let config = try base.applying(settings: try table("""
            {"slideshow": {"interval": 12.5, "order": "shuffle", "ken_burns": true, "pair_portraits": true},
             "overlay": {"clock": "bottom-right"},
             "schedule": {"period": [{"days": ["mon-fri"], "off": "22:30", "on": "07:00"}], "wake_minutes": 2},
             "library": {"sort": "date"}, "kiosk": true}
            """), source: "request")
        #expect(config.slideshow.interval == 12.5)
        #expect(config.slideshow.order == .shuffle)
        #expect(config.slideshow.transition == .slide, "not in the settings: config.toml's")
        #expect(config.slideshow.kenBurns && config.slideshow.pairPortraits)
        #expect(config.overlay.clock == .bottomRight && config.overlay.place == .topLeft)
        #expect(config.schedule.periods == [SchedulePeriod(parsing: "mon-fri 22:30-07:00")!])
        #expect(config.schedule.wakeMinutes == 2)
        #expect(config.library.sort == .date && config.library.folders == ["/photos"])
        #expect(config.kiosk)
        // What the API reports is what was applied.
        #expect(config.settingsJSON.text.contains(#""interval":12.5"#))
        #expect(config.settingsJSON.text.contains(#""period":[{"days":["mon","tue","wed","thu","fri"],"off":"22:30","on":"07:00"}]"#))
    }

    @Test func theJSONReaderKeepsOrderTypesAndEscapesAndSaysWhereItFailed() throws {
        let t = try table(#" {"b": 1, "a": [2.5, "x\"\u00e9\ud83d\ude00", true], "c": {}} "#)
        #expect(t.entries.map(\.key) == ["b", "a", "c"])
        guard case .integer(1) = t["b"]?.kind, case .array(let items)? = t["a"]?.kind, items.count == 3,
              case .float(2.5) = items[0].kind, case .string(let s) = items[1].kind, case .boolean(true) = items[2].kind else {
            Issue.record("wrong values: \(t.entries)")
            return
        }
        #expect(s == "x\"é😀")
        for bad in ["", "[1]", #"{"a": 1,}"#, #"{"a": null}"#, #"{"a": 1} x"#, #"{"a": "b"#, #"{"a": 1, "a": 2}"#, #"{"a": 1e999}"#] {
            #expect(throws: JSONReader.Failure.self, "\(bad)") { try JSONReader.table(from: Array(bad.utf8)) }
        }
        let deep = String(repeating: "{\"a\":", count: 40) + "1" + String(repeating: "}", count: 40)
        #expect(throws: JSONReader.Failure.self) { try JSONReader.table(from: Array(deep.utf8)) }
    }

    // MARK: The settings file

    func store(_ scratch: ScratchDirectory) -> SettingsStore {
        SettingsStore(stateDirectory: scratch["state"].description, logger: Logger(label: "test"))
    }

    @Test func savedSettingsSurviveARestartAndWinOverConfigToml() throws {
        let scratch = ScratchDirectory()
        var base = KioskConfig()
        base.slideshow.interval = 30
        let first = store(scratch)
        #expect(first.load(over: base) == base, "no file: config.toml's values")
        _ = try first.change(try table(#"{"slideshow": {"interval": 8}}"#), base: base)
        let applied = try first.change(try table(#"{"slideshow": {"ken_burns": true}, "kiosk": true, "schedule": {"period": [{"days": ["sat", "sun"], "off": "23:00", "on": "08:30"}]}}"#), base: base)
        #expect(applied.slideshow.interval == 8, "an earlier change stays")
        #expect(first.heldKeys == ["slideshow.interval", "slideshow.ken_burns", "schedule.period", "kiosk"])

        // A restart: a new store reads the file the first one wrote.
        let second = store(scratch)
        let restarted = second.load(over: base)
        #expect(restarted == applied)
        #expect(second.heldKeys == first.heldKeys)
        #expect(second.problem == nil)
        // The file is TOML config.toml's parser reads, with the values written out.
        let text = String(decoding: readFile(RawPath(second.file)) ?? [], as: UTF8.self)
        #expect(text.contains("kiosk = true\n"))
        #expect(text.contains("[slideshow]\ninterval = 8\nken_burns = true\n"))
        #expect(text.contains(#"period = [{days = ["sat", "sun"], off = "23:00", on = "08:30"}]"#))
        #expect(directoryNames(scratch["state"].description) == ["settings.toml"], "no temporary file left")

        second.reset()
        #expect(!fileExists(RawPath(second.file)))
        #expect(store(scratch).load(over: base) == base)
    }

    @Test func aRefusedChangeSavesAndChangesNothing() throws {
        let scratch = ScratchDirectory()
        let s = store(scratch)
        _ = try s.change(try table(#"{"slideshow": {"interval": 8}}"#), base: KioskConfig())
        let before = readFile(RawPath(s.file))
        #expect(throws: SettingsStore.ChangeError.self) {
            try s.change(try table(#"{"slideshow": {"interval": 0, "order": "shuffle"}}"#), base: KioskConfig())
        }
        #expect(readFile(RawPath(s.file)) == before)
        #expect(s.heldKeys == ["slideshow.interval"])
    }

    @Test func aWriteThatFailsAtAnyStepLeavesTheOldFileWhole() throws {
        for step in [AtomicFile.Step.createTemporary, .write, .syncFile, .rename] {
            let scratch = ScratchDirectory()
            let s = store(scratch)
            _ = try s.change(try table(#"{"slideshow": {"interval": 8}}"#), base: KioskConfig())
            let before = readFile(RawPath(s.file))
            s.failing = { $0 == step }
            do {
                _ = try s.change(try table(#"{"slideshow": {"interval": 9}}"#), base: KioskConfig())
                Issue.record("\(step): the failure was not reported")
            } catch let error as SettingsStore.ChangeError {
                guard case .notSaved = error else { Issue.record("\(step): \(error)"); continue }
            }
            #expect(readFile(RawPath(s.file)) == before, "\(step)")
            #expect(directoryNames(scratch["state"].description) == ["settings.toml"], "\(step): no temporary file left")
            #expect(store(scratch).load(over: KioskConfig()).slideshow.interval == 8, "\(step)")
        }
    }

    @Test func aBrokenFileIsNamedInTheLogAndConfigTomlIsUsed() throws {
        let broken: [(String, String)] = [
            ("[slideshow\ninterval = 5\n", "line 1"),
            ("[slideshow]\ninterval = 0\n", "slideshow.interval: 0.0 is out of range"),
            ("[display]\nrotation = 90\n", "display: is not a setting the remote page can change"),
            (String(decoding: [0xFF, 0xFE, 0x00, 0x41], as: UTF8.self), "line 1"),
        ]
        for (text, reason) in broken {
            let scratch = ScratchDirectory()
            scratch.file("state/settings.toml", bytes: Array(text.utf8))
            let messages = LogCapture()
            let s = SettingsStore(stateDirectory: scratch["state"].description, logger: messages.logger)
            var base = KioskConfig()
            base.slideshow.interval = 42
            #expect(s.load(over: base) == base)
            #expect(s.heldKeys.isEmpty)
            #expect(s.problem?.contains(reason) == true, "\(s.problem ?? "nil") should say \(reason)")
            #expect(messages.warnings.contains { $0.contains(s.file) && $0.contains("config.toml's values are used") }, "\(messages.warnings)")
            // Saving a setting writes the file anew.
            _ = try s.change(try table(#"{"kiosk": true}"#), base: base)
            #expect(store(scratch).load(over: base).kiosk)
        }
    }
}

@testable import PhotoKioskApp
import SystemAccess
import Testing

/// Issue 30, item 1: the configuration reference (docs/configuration.md) is generated from
/// `KioskConfig.schema`, which is held to the parser: every option the parser knows is
/// documented exactly once, each documented default reads back as the default, and each
/// example is read into the config by its setter.
@Suite struct ConfigReferenceTests {
    var leafOptions: [String] {
        KioskConfig.knownKeys.flatMap { table, keys in
            keys.map { table.isEmpty ? $0 : table + "." + $0 }.filter { KioskConfig.knownKeys[$0] == nil }
        }
    }

    /// The TOML that sets `option` to `value` (a period's keys inside a whole period).
    func toml(_ option: ConfigOption, _ value: String) -> String {
        if option.table == "schedule.period" {
            var period = ["days": "[\"mon\"]", "off": "\"22:00\"", "on": "\"06:00\""]
            period[option.name] = value
            return "[[schedule.period]]\n" + period.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: "\n") + "\n"
        }
        if option.table == "source" {
            var source = ["name": "\"nas\"", "remote": "\"nas:Photos\""]
            source[option.name] = value
            return "[[source]]\n" + source.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: "\n") + "\n"
        }
        let line = "\(option.name) = \(value)\n"
        var text = option.table.isEmpty ? line : "[\(option.table)]\n" + line
        // Options that only stand with another: a listen address needs its token (random-looking:
        // a pattern is refused).
        if option.key == "remote.listen", value != "\"\"" { text += "token = \"OgVIyrD3lMRNnXk4bstHg1Zh\"\n" }
        // Syncthing's state needs the key file and the folder to ask about.
        if option.key == "syncthing.enabled", value == "true" { text += "api_key_file = \"/k\"\nfolder_id = \"f\"\n" }
        return text
    }

    @Test func everyOptionTheParserKnowsIsDocumentedOnce() {
        let documented = KioskConfig.schema.map(\.key)
        #expect(Set(documented).count == documented.count, "documented twice: \(documented.filter { k in documented.filter { $0 == k }.count > 1 })")
        #expect(Set(documented) == Set(leafOptions),
                "undocumented: \(Set(leafOptions).subtracting(documented).sorted()); unknown to the parser: \(Set(documented).subtracting(leafOptions).sorted())")
    }

    @Test func everyOptionHasItsFlag() {
        for option in KioskConfig.schema where option.table != "source" {
            #expect(option.flag != nil, "\(option.key) has no command-line flag in KioskConfigOverrides.flagNames")
        }
    }

    @Test func eachDocumentedDefaultIsTheDefault() throws {
        for option in KioskConfig.schema {
            guard let value = option.defaultValue else {
                #expect(option.defaultNote != nil, "\(option.key) says nothing about its default")
                continue
            }
            let parsed = try KioskConfig.parse(toml(option, value), file: option.key)
            #expect(parsed == KioskConfig(), "\(option.key) = \(value) is not the default")
        }
    }

    /// The schema's setters read every documented option into the config: its example (which
    /// differs from the default) changes the parsed config.
    @Test func theParserReadsEveryDocumentedOption() throws {
        for option in KioskConfig.schema {
            #expect(option.example != option.defaultValue, "\(option.key): the example must differ from the default")
            let text = toml(option, option.example)
            var parsed: KioskConfig?
            do { parsed = try KioskConfig.parse(text, file: option.key) } catch {
                Issue.record("\(option.key): the example \(option.example) is refused: \(error)")
            }
            let base = option.table == "source" ? try KioskConfig.parse(toml(option, option.name == "name" ? "\"other\"" : option.name == "remote" ? "\"other:x\"" : "30"), file: "base")
                : option.table == "schedule.period" ? try KioskConfig.parse(toml(option, option.name == "days" ? "[\"tue\"]" : option.name == "off" ? "\"21:00\"" : "\"05:00\""), file: "base") : KioskConfig()
            #expect(parsed != nil && parsed != base, "\(option.key) = \(option.example) did not change the config")
        }
    }

    @Test func thePagesExampleIsAValidConfig() throws {
        let toml = KioskConfig.referenceExample.split(separator: "```").dropFirst().first.map { $0.dropFirst("toml\n".count) } ?? ""
        #expect(toml.contains("[library]"))
        let config = try KioskConfig.parse(String(toml), file: "example")
        #expect(config.library.folders == ["/media/photos"])
        #expect(config.schedule.periods.count == 1)
    }

    @Test func theCommittedPageIsTheGeneratedOne() throws {
        let root = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let bytes = try #require(AtomicFile.read(root + "/docs/configuration.md"), "docs/configuration.md exists")
        let committed = String(decoding: bytes, as: UTF8.self)
        #expect(committed == KioskConfig.referencePage(),
                "docs/configuration.md is out of date: run `photokiosk config-reference > docs/configuration.md`")
    }

    @Test func thePageHasATableRowPerOption() {
        let page = KioskConfig.referencePage()
        for option in KioskConfig.schema {
            #expect(page.components(separatedBy: "\n| `\(option.name)` |").count >= 2, "\(option.key) has no row")
        }
        #expect(page.components(separatedBy: "\n| `").count - 1 == KioskConfig.schema.count)
    }
}

@testable import PhotoKioskApp
import Testing
import SystemAccess

/// Every option the parser knows is documented in deploy/config.toml and has a command-line flag.
@Suite struct KioskConfigCoverageTests {
    /// "library.folders", "schedule.period.off", ...: every leaf option.
    var leafOptions: Set<String> {
        var result: Set<String> = []
        for (table, keys) in KioskConfig.knownKeys {
            for key in keys {
                let path = table.isEmpty ? key : table + "." + key
                if KioskConfig.knownKeys[path] == nil { result.insert(path) }
            }
        }
        return result
    }

    func keys(of table: TOMLTable, prefix: String) -> Set<String> {
        var result: Set<String> = []
        for e in table.entries {
            let path = prefix.isEmpty ? e.key : prefix + "." + e.key
            switch e.value.kind {
            case .table(let t):
                result.formUnion(keys(of: t, prefix: path))
            case .array(let items) where items.contains(where: { if case .table = $0.kind { true } else { false } }):
                for case .table(let t) in items.map(\.kind) { result.formUnion(keys(of: t, prefix: path)) }
            default:
                result.insert(path)
            }
        }
        return result
    }

    @Test func exampleFileSetsEveryOption() throws {
        let path = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/") + "/deploy/config.toml"
        let bytes = try #require(AtomicFile.read(path))
        let root = try TOMLParser.parse(String(decoding: bytes, as: UTF8.self))
        #expect(keys(of: root, prefix: "") == leafOptions)
    }

    @Test func everyOptionHasAFlag() {
        // A period's keys share --schedule; sources are the sync unit's, not the kiosk's to override.
        var expected = leafOptions.subtracting(["schedule.period.days", "schedule.period.off", "schedule.period.on",
                                                "source.name", "source.remote", "source.interval", "source.quota_mb"])
        expected.insert("schedule.period")
        #expect(Set(KioskConfigOverrides.flagNames.keys) == expected)
        #expect(Set(KioskConfigOverrides.flagNames.values).count == expected.count, "flags are distinct")
    }
}

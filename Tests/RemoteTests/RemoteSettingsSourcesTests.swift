import Imaging
import Logging
import PhotoKioskApp
@testable import Remote
import Testing
import TestSupport

/// Issue 34 item 1: photo sources on the phone page's settings. The page sends the whole list;
/// it is checked by config.toml's [[source]] rules, kept in the settings file (where
/// `photokiosk sources`, and so the sync unit, reads it) and applied at once.
@Suite(.serialized) struct RemoteSettingsSourcesTests {
    static let json = RemoteFixture.jsonBody

    func fixture() throws -> (RemoteFixture, SettingsStore) { try RemoteFixture.withSettings() }

    func put(_ f: RemoteFixture, _ body: String) throws -> HTTPReply {
        try #require(try f.request("PUT", "/api/settings", body: Array(body.utf8), headers: Self.json))
    }

    @Test func sourcesAreAddedChangedAndRemovedAsAWholeList() throws {
        let (f, store) = try fixture()
        let empty = try #require(try f.request("GET", "/api/settings"))
        #expect(empty.text.contains(#""source":[]"#))

        let added = try put(f, #"{"source": [{"name": "family", "remote": "nextcloud:Photos/Frame", "interval": 30, "quota_mb": 2000}, {"name": "nas", "remote": "nas:photos"}]}"#)
        #expect(added.status == 200, "\(added.text)")
        #expect(added.text.contains(#""source":[{"name":"family","remote":"nextcloud:Photos/Frame","interval":30,"quota_mb":2000},{"name":"nas","remote":"nas:photos","interval":60,"quota_mb":0}]"#))
        #expect(added.text.contains(#""from_settings_file":["source"]"#))
        #expect(f.app.config.sources == [KioskConfig.Source(name: "family", remote: "nextcloud:Photos/Frame", intervalMinutes: 30, quotaMB: 2000),
                                         KioskConfig.Source(name: "nas", remote: "nas:photos")])
        // Kept: a fresh read of the settings file over config.toml has them.
        #expect(SettingsStore(stateDirectory: f.scratch.directory("state").description, logger: Logger(label: "test"))
                    .load(over: KioskConfig()).sources.map(\.name) == ["family", "nas"])

        let changed = try put(f, #"{"source": [{"name": "family", "remote": "nextcloud:Photos/Kitchen", "interval": 15, "quota_mb": 0}]}"#)
        #expect(changed.status == 200)
        #expect(f.app.config.sources == [KioskConfig.Source(name: "family", remote: "nextcloud:Photos/Kitchen", intervalMinutes: 15)])

        let none = try put(f, #"{"source": []}"#)
        #expect(none.status == 200)
        #expect(f.app.config.sources.isEmpty)
        var base = KioskConfig()
        base.sources = [KioskConfig.Source(name: "fromfile", remote: "x:y")]
        #expect(store.load(over: base).sources.isEmpty, "an empty list saved on the page stands in for config.toml's")
    }

    @Test func hostileSourcesAreRefusedWithTheReasonAndChangeNothing() throws {
        let (f, store) = try fixture()
        let many = (0..<65).map { #"{"name": "s\#($0)", "remote": "r:p"}"# }.joined(separator: ",")
        let cases: [(String, String)] = [
            (#"{"name": "a", "remote": ":local:/etc"}"#, "is not REMOTE:PATH"),
            (#"{"name": "a", "remote": "nas,user=x,pass=y:photos"}"#, "is not REMOTE:PATH"),
            (#"{"name": "a", "remote": "/etc"}"#, "is not REMOTE:PATH"),
            (#"{"name": "a", "remote": "nas:photos\nevil"}"#, "holds a line break"),
            (#"{"name": "a", "remote": "nas:photos\u0000"}"#, "holds a control character"),
            (#"{"name": "a", "remote": "nas:pho\ttos"}"#, "holds a control character"),
            (#"{"name": "a", "remote": "--dry-run:photos"}"#, "is not REMOTE:PATH"),
            (#"{"name": "a", "remote": " nas:photos"}"#, "is not REMOTE:PATH"),
            (#"{"name": "a", "remote": "nas :photos"}"#, "is not REMOTE:PATH"),
            (#"{"name": "a", "remote": "nas:\#(String(repeating: "p", count: 1100))"}"#, "longer than 1024 characters"),
            (#"{"name": "../x", "remote": "nas:photos"}"#, "must be letters, digits"),
            (#"{"name": "\#(String(repeating: "n", count: 300))", "remote": "nas:photos"}"#, "must be letters, digits"),
            (#"{"name": "a", "remote": "nas:photos", "interval": 0}"#, "source.interval: 0 is out of range"),
            (#"{"name": "a", "remote": "nas:photos", "interval": 99999999}"#, "source.interval: 99999999 is out of range"),
            (#"{"name": "a", "remote": "nas:photos", "quota_mb": -1}"#, "source.quota_mb: -1 is out of range"),
            (#"{"name": "a", "remote": "nas:photos", "interval": "often"}"#, "source.interval: must be"),
            (#"{"name": "a"}"#, "needs name"),
            (#"{"name": "a", "remote": "nas:photos", "password": "x"}"#, "source.password"),
            (#"{"name": "a", "remote": "nas:a"}, {"name": "a", "remote": "nas:b"}"#, #"two sources are named \"a\""#),
            (many, "65 sources: at most 64"),
        ]
        for (sources, reason) in cases {
            let reply = try put(f, #"{"source": ["# + sources + "]}")
            #expect(reply.status == 400, "\(sources.prefix(80))")
            #expect(reply.text.contains(reason), "\(sources.prefix(80)): \(reply.text.prefix(300))")
        }
        #expect(f.app.config.sources.isEmpty)
        #expect(!fileExists(RawPath(store.file)), "nothing saved")
        // rclone's own remote names are taken.
        let rcloneNames = try put(f, #"{"source": [{"name": "a", "remote": "my nas+2@home.lan:Photos/2024"}]}"#)
        #expect(rcloneNames.status == 200, "\(rcloneNames.text)")
    }

    @Test func thePageListsTheSourcesWithAFormToAddOne() throws {
        let (f, _) = try fixture()
        let page = try #require(try f.request("GET", "/"))
        #expect(page.text.contains(#"id="settings-sources""#) && page.text.contains(#"id="settings-add-source""#))
        #expect(page.text.contains("Passwords never go through this page"))
    }
}

@testable import PhotoKioskApp
@testable import Remote
import SystemAccess
import Testing
import TestSupport

/// Issue 34, item 7: `GET /api/status` lists each source's last sync, photo count and error,
/// read from the status file photokiosk-sync writes (docs/remote-api.json, `SourceState`).
@Suite struct RemoteSourcesTests {
    @Test func aSourceStateComesFromItsStatusFile() throws {
        let dir = makeTemporaryDirectory("remote-sources")
        try AtomicFile.write(Array("""
            last_sync = "2026-11-28T10:00:00Z"
            last_attempt = "2026-11-28T10:30:00Z"
            photos = 42
            error = "the server cannot be reached (network or server down)"
            failures = 3
            quota = ""
            """.utf8), to: dir + "/nas.toml")
        let json = String(decoding: RemoteAPI.sourceJSON(name: "nas", SourceStatus.read(dir + "/nas.toml")).bytes, as: UTF8.self)
        #expect(json == #"{"name":"nas","last_sync":"2026-11-28T10:00:00Z","photos":42,"error":"the server cannot be reached (network or server down)","failures":3,"quota":null}"#)
    }

    @Test func aSourceNotSyncedYetHasNulls() {
        let json = String(decoding: RemoteAPI.sourceJSON(name: "dav", nil).bytes, as: UTF8.self)
        #expect(json == #"{"name":"dav","last_sync":null,"photos":0,"error":null,"failures":0,"quota":null}"#)
    }
}

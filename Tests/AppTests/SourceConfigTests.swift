@testable import PhotoKioskApp
import SystemAccess
import Testing
import TestSupport

/// Issue 34, item 1: `[[source]]` entries are read by the config's parser (one table of
/// options), every mistake is reported, and each source's folder joins the library.
@Suite struct SourceConfigTests {
    @Test func sourcesAreReadInOrderAndJoinTheLibrary() throws {
        let config = try KioskConfig.parse("""
            [library]
            folders = ["/srv/photos"]
            [[source]]
            name = "nextcloud"
            remote = "nextcloud:Photos/Frame"
            [[source]]
            name = "nas_1"
            remote = "nas:/volume1/photos"
            interval = 15
            quota_mb = 2048
            """, file: "test.toml")
        #expect(config.sources == [
            KioskConfig.Source(name: "nextcloud", remote: "nextcloud:Photos/Frame", intervalMinutes: 60, quotaMB: 0),
            KioskConfig.Source(name: "nas_1", remote: "nas:/volume1/photos", intervalMinutes: 15, quotaMB: 2048),
        ])
        let service = KioskPaths(environment: ["XDG_STATE_HOME": "/var/lib"], config: config)
        #expect(config.libraryFolders(service) == ["/srv/photos", "/var/lib/photokiosk/sources/nextcloud",
                                                   "/var/lib/photokiosk/sources/nas_1"])
        #expect(service.statusFile(of: config.sources[1]) == "/var/lib/photokiosk/source-status/nas_1.toml")
        #expect(KioskConfig().sources.isEmpty)
        #expect(KioskConfig().libraryFolders(service) == KioskConfig().library.folders)
    }

    @Test func everyMistakeOfASourceIsReported() throws {
        var thrown: ConfigError?
        do {
            _ = try KioskConfig.parse("""
                [[source]]
                name = "../etc"
                remote = "/local/path"
                interval = 1
                quota_mb = -5
                colour = "red"
                [[source]]
                name = "ok"
                [[source]]
                name = "twice"
                remote = "a:b"
                [[source]]
                name = "twice"
                remote = "a:c"
                """, file: "test.toml")
        } catch { thrown = error }
        let lines = try #require(thrown).allMistakes.map(\.description)
        let expected = [
            "test.toml:2: source.name: \"../etc\" must be letters",
            "test.toml:3: source.remote: \"/local/path\" is not REMOTE:PATH",
            "test.toml:4: source.interval: 1 is out of range (5 to 10080 minutes)",
            "test.toml:5: source.quota_mb: -5 is out of range",
            "test.toml:6: source.colour: unknown option",
            "test.toml:7: source.remote: each [[source]] needs name",
            "test.toml:12: source.name: two sources are named \"twice\"",
        ]
        #expect(lines.count == expected.count, "\(lines)")
        for (line, prefix) in zip(lines, expected) { #expect(line.hasPrefix(prefix), "\(line) should start with \(prefix)") }
    }

    /// A connection string would carry the address and password in the config file (and so in
    /// `doctor`'s and the logs' words): only a remote named in rclone.conf is accepted.
    @Test func aConnectionStringIsRefused() {
        #expect(KioskConfig.Source.remoteProblem(":webdav,url='https://u:secret@host':Photos") != nil)
        #expect(KioskConfig.Source.remoteProblem("dav:") == nil)
        #expect(KioskConfig.Source.remoteProblem("dav:Photos/Frame") == nil)
    }

    @Test func theStatusFileIsReadAndSummarised() throws {
        let dir = makeTemporaryDirectory("source-status")
        let path = dir + "/dav.toml"
        try AtomicFile.write(Array("""
            last_sync = "2026-11-28T10:00:00Z"
            last_attempt = "2026-11-28T11:00:00Z"
            photos = 12
            error = "the server refused the login (HTTP 401)"
            failures = 2
            quota = "40 older photos left out to stay under 100 MB"
            """.utf8), to: path)
        let status = try #require(SourceStatus.read(path))
        #expect(status.lastSync == "2026-11-28T10:00:00Z")
        #expect(status.photos == 12)
        #expect(status.failures == 2)
        #expect(status.summary == "last sync 2026-11-28T10:00:00Z, 12 photos (40 older photos left out to stay under 100 MB); FAILING since 2026-11-28T11:00:00Z (2 in a row): the server refused the login (HTTP 401)")
        #expect(SourceStatus.read(dir + "/absent.toml") == nil)
    }
}

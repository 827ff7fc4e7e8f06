import Imaging
import Logging
import PhotoKioskApp
@testable import Remote
import Testing
import TestSupport

/// `/api/settings` over a real loopback socket: read, change (JSON only, checked by the config's
/// rules, 400 with the reason), kept in the settings file, applied to the running app, reset.
@Suite(.serialized) struct RemoteSettingsAPITests {
    static let json = RemoteFixture.jsonBody

    func fixture() throws -> (RemoteFixture, SettingsStore) { try RemoteFixture.withSettings() }

    @Test func readsTheSettingsWithTheirChoicesAndWhereTheyComeFrom() throws {
        let (f, store) = try fixture()
        let reply = try #require(try f.request("GET", "/api/settings"))
        #expect(reply.status == 200)
        #expect(reply.text.contains(#""slideshow":{"interval":1.0,"order":"sequential","transition":"none""#))
        #expect(reply.text.contains(#""from_settings_file":[]"#))
        #expect(reply.text.contains(#""settings_file":"\#(store.file)""#))
        #expect(reply.text.contains(#""slideshow.order":["sequential","shuffle"]"#))
        let unauthorized = try #require(try f.request("GET", "/api/settings", authorized: false))
        #expect(unauthorized.status == 401)
    }

    @Test func aChangeIsCheckedSavedAndAppliedAtOnce() throws {
        let (f, store) = try fixture()
        let body = Array(#"{"slideshow": {"interval": 7, "ken_burns": true}, "overlay": {"clock": "top-right"}, "kiosk": true}"#.utf8)
        let reply = try #require(try f.request("PUT", "/api/settings", body: body, headers: Self.json))
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.text.contains(#""from_settings_file":["slideshow.interval","slideshow.ken_burns","overlay.clock","kiosk"]"#))
        #expect(f.app.config.slideshow.interval == 7 && f.app.config.slideshow.kenBurns && f.app.config.kiosk)
        #expect(f.app.sessionDriver?.session.slideshow.settings.interval == 7, "the running slideshow has it")
        #expect(!f.app.host.allowsQuit)
        #expect(store.load(over: KioskConfig()).slideshow.interval == 7, "kept in the settings file")
        let read = try #require(try f.request("GET", "/api/settings"))
        #expect(read.text.contains(#""interval":7.0"#) && read.text.contains(#""kiosk":true"#))

        let reset = try #require(try f.request("DELETE", "/api/settings", headers: Self.json))
        #expect(reset.status == 200)
        #expect(reset.text.contains(#""from_settings_file":[]"#))
        #expect(f.app.config.slideshow.interval == 1 && !f.app.config.kiosk, "config.toml's values again")
        #expect(!fileExists(RawPath(store.file)))
    }

    @Test func wrongValuesAreRefusedWithTheReasonAndChangeNothing() throws {
        let (f, store) = try fixture()
        let cases: [(String, String)] = [
            (#"{"slideshow": {"interval": 0}}"#, "slideshow.interval: 0.0 is out of range (1.0 to 86400.0 seconds)"),
            (#"{"slideshow": {"interval": 100000}}"#, "slideshow.interval: 100000.0 is out of range"),
            (#"{"schedule": {"wake_minutes": -1}}"#, "schedule.wake_minutes: -1 is out of range"),
            (#"{"slideshow": {"order": "random"}}"#, #"slideshow.order: \"random\" is not one of \"sequential\", \"shuffle\""#),
            (#"{"display": {"rotation": 90}}"#, "display: is not a setting the remote page can change"),
            (#"{"slideshow": {"interval": "5"}}"#, "slideshow.interval: must be a number, not a string"),
            (#"{"slideshow": "#, "not valid JSON"),
        ]
        for (body, reason) in cases {
            let reply = try #require(try f.request("PUT", "/api/settings", body: Array(body.utf8), headers: Self.json))
            #expect(reply.status == 400, "\(body)")
            #expect(reply.text.contains(reason), "\(body): \(reply.text)")
        }
        #expect(f.app.config.slideshow.interval == 1)
        #expect(!fileExists(RawPath(store.file)), "nothing saved")
    }

    @Test func aChangeMustBeSentAsJSONFromThisServer() throws {
        let (f, store) = try fixture()
        let body = Array(#"{"kiosk": true}"#.utf8)
        let refused: [[(String, String)]] = [[], [("Content-Type", "text/plain")], [("Content-Type", "application/x-www-form-urlencoded")],
                                             Self.json + [("Origin", "http://evil.example")], Self.json + [("Referer", "http://evil.example/page")]]
        for headers in refused {
            let reply = try #require(try f.request("PUT", "/api/settings", body: body, headers: headers))
            #expect(reply.status == 403, "\(headers)")
            guard !headers.isEmpty else { continue }   // the fixture says JSON for a DELETE that names no type
            let reset = try #require(try f.request("DELETE", "/api/settings", headers: headers))
            #expect(reset.status == 403, "\(headers): \(reset.text)")
        }
        #expect(!fileExists(RawPath(store.file)), "nothing saved")
        let sameOrigin = try #require(try f.request("PUT", "/api/settings", body: body, headers: Self.json + [("Origin", "http://127.0.0.1")]))
        #expect(sameOrigin.status == 200, "\(sameOrigin.text)")
        let withCharset = try #require(try f.request("PUT", "/api/settings", body: body, headers: [("Content-Type", "Application/JSON; charset=utf-8")]))
        #expect(withCharset.status == 200)
        #expect(store.heldKeys == ["kiosk"])
        let post = try #require(try f.request("POST", "/api/settings", body: body, headers: Self.json))
        #expect(post.status == 405)
        #expect(post.headers["allow"] == "GET, PUT, DELETE")
    }

    @Test func thePageHasTheSettingsForm() throws {
        let (f, _) = try fixture()
        let page = try #require(try f.request("GET", "/"))
        #expect(page.status == 200)
        for key in KioskSettings.keys where key != "schedule.period" && key != "source" {
            #expect(page.text.contains(#"data-key="\#(key)""#), "\(key) has a field")
        }
        #expect(page.text.contains(#"id="settings-periods""#))
        #expect(page.text.contains(#"id="settings-sources""#))
    }
}

import PhotoKioskApp
import Testing

/// `[remote]` in the config file and its flags: off by default, never without a good token.
@Suite struct RemoteConfigTests {
    @Test func theRemoteIsOffUnlessListenIsSet() throws {
        let config = try KioskConfig.parse("", file: "c.toml")
        #expect(config.remote.listen == nil)
        #expect(config.remote.maxUploadMB == 64)
        let empty = try KioskConfig.parse("[remote]\nupload_folder = \"\"", file: "c.toml")
        #expect(empty.remote.uploadFolder == nil, "an empty upload folder means the first photo folder")
    }

    @Test func aConfiguredRemoteParses() throws {
        let config = try KioskConfig.parse("""
        [remote]
        listen = "0.0.0.0:8080"
        token = "q7Xv2LmN9pR4tK8wZ3bH6cJd"
        upload_folder = "/srv/uploads"
        max_upload_mb = 20
        reserve_mb = 100
        """, file: "c.toml")
        #expect(config.remote.listen == KioskConfig.ListenAddress(host: "0.0.0.0", port: 8080))
        #expect(config.remote.uploadFolder == "/srv/uploads")
        #expect(config.remote.maxUploadMB == 20 && config.remote.reserveMB == 100)
        let v6 = try KioskConfig.parse("[remote]\nlisten = \"[::]:9000\"\ntoken = \"q7Xv2LmN9pR4tK8wZ3bH6cJd\"", file: "c.toml")
        #expect(v6.remote.listen == KioskConfig.ListenAddress(host: "::", port: 9000))
        #expect(v6.remote.listen?.description == "[::]:9000")
    }

    @Test func listeningWithoutATokenIsRefusedAndSaysWhy() {
        #expect(throws: ConfigError.self) { try KioskConfig.parse("[remote]\nlisten = \"0.0.0.0:8080\"", file: "c.toml") }
        do {
            _ = try KioskConfig.parse("[remote]\nlisten = \"0.0.0.0:8080\"", file: "c.toml")
        } catch {
            #expect(error.key == "remote.token")
            #expect(error.message.contains("open to anyone on the network"))
        }
        do {
            _ = try KioskConfig.parse("[remote]\nlisten = \"0.0.0.0:8080\"\ntoken = \"short\"", file: "c.toml")
            Issue.record("a 5-character token was accepted")
        } catch {
            #expect(error.message.contains("at least 16"))
        }
        do {
            _ = try KioskConfig.parse("[remote]\nlisten = \"0.0.0.0:8080\"\ntoken = \"has spaces in it, sixteen+\"", file: "c.toml")
            Issue.record("a token with spaces was accepted")
        } catch {
            #expect(error.message.contains("letters, digits"))
        }
    }

    @Test func badAddressesAndLimitsAreNamed() {
        for bad in ["8080", "localhost:8080", "0.0.0.0:0", "0.0.0.0:70000", "::1:8080", "[::1]", "1.2.3:80"] {
            #expect(KioskConfig.ListenAddress(parsing: bad) == nil, "\(bad)")
            do {
                _ = try KioskConfig.parse("[remote]\nlisten = \"\(bad)\"\ntoken = \"q7Xv2LmN9pR4tK8wZ3bH6cJd\"", file: "c.toml")
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.key == "remote.listen")
                #expect(error.line == 2)
            }
        }
        do {
            _ = try KioskConfig.parse("[remote]\nmax_upload_mb = 0", file: "c.toml")
            Issue.record("max_upload_mb 0 was accepted")
        } catch {
            #expect(error.key == "remote.max_upload_mb")
        }
        do {
            _ = try KioskConfig.parse("[remote]\nlisten_on = \"0.0.0.0:1\"", file: "c.toml")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.message.contains("did you mean remote.listen"))
        }
    }

    @Test func flagsOverrideTheFileAndAreCheckedTheSameWay() throws {
        var overrides = KioskConfigOverrides()
        overrides.remoteListen = KioskConfig.ListenAddress(host: "127.0.0.1", port: 8081)
        let noToken = #expect(throws: ConfigError.self) { try KioskConfig().applying(overrides) }
        #expect(noToken?.key == "--remote-token")
        overrides.remoteToken = "q7Xv2LmN9pR4tK8wZ3bH6cJd"
        overrides.remoteMaxUploadMB = 5000
        let tooLarge = #expect(throws: ConfigError.self, "--remote-max-upload-mb 5000") { try KioskConfig().applying(overrides) }
        #expect(tooLarge?.key == "--remote-max-upload-mb")
        overrides.remoteMaxUploadMB = 8
        overrides.remoteUploadFolder = "/srv/in"
        let config = try KioskConfig().applying(overrides)
        #expect(config.remote.maxUploadMB == 8 && config.remote.uploadFolder == "/srv/in")
        #expect(config.remote.listen?.port == 8081)
        #expect(config.remote.token == "q7Xv2LmN9pR4tK8wZ3bH6cJd")
    }
}

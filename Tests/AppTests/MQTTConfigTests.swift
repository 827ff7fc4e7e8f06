import PhotoKioskApp
import Testing

/// The [mqtt] table: off by default, each option read, and each mistake reported by its option.
@Suite struct MQTTConfigTests {
    @Test func offUnlessAURLIsGiven() throws {
        let config = try KioskConfig.parse("", file: "f")
        #expect(config.mqtt.url == nil)
        #expect(config.mqtt.address == nil)
    }

    @Test func everyOptionIsRead() throws {
        let config = try KioskConfig.parse("""
            [mqtt]
            url = "mqtts://broker.lan:8884"
            username = "frame"
            password_file = "/etc/photokiosk/mqtt-password"
            id = "hall"
            discovery_prefix = "ha"
            ca_file = "/etc/ssl/lan-ca.pem"
            """, file: "f")
        #expect(config.mqtt.address == MQTTAddress(parsing: "mqtts://broker.lan:8884"))
        #expect(config.mqtt.address?.useTLS == true && config.mqtt.address?.port == 8884)
        #expect(config.mqtt.username == "frame")
        #expect(config.mqtt.passwordFile == "/etc/photokiosk/mqtt-password")
        #expect(config.mqtt.id == "hall")
        #expect(config.mqtt.discoveryPrefix == "ha")
        #expect(config.mqtt.caFile == "/etc/ssl/lan-ca.pem")
    }

    @Test func addresses() {
        #expect(MQTTAddress(parsing: "mqtt://10.0.0.2")?.port == 1883)
        #expect(MQTTAddress(parsing: "mqtts://h")?.port == 8883)
        #expect(MQTTAddress(parsing: "mqtt://[fd00::2]:1884")?.host == "fd00::2")
        #expect(MQTTAddress(parsing: "mqtt://[fd00::2]:1884")?.port == 1884)
        for bad in ["http://h", "mqtt://", "mqtt://h:0", "mqtt://h:99999", "mqtt://user@h", "mqtt://h/x", "mqtt://h:port"] {
            #expect(MQTTAddress(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func eachMistakeIsNamed() throws {
        var thrown: ConfigError?
        do {
            _ = try KioskConfig.parse("""
                [mqtt]
                url = "tcp://broker"
                password = "a"
                password_file = "/p"
                id = "hall/2"
                discovery_prefix = "ha/#"
                """, file: "f")
        } catch { thrown = error }
        let keys = try #require(thrown).allMistakes.map(\.key)
        #expect(keys == ["mqtt.url", "mqtt.password_file", "mqtt.id", "mqtt.discovery_prefix"], "\(keys)")
    }

    @Test func anUnknownOptionIsSuggested() throws {
        var thrown: ConfigError?
        do { _ = try KioskConfig.parse("[mqtt]\nurl = \"mqtt://h\"\nusernme = \"x\"\n", file: "f") } catch { thrown = error }
        #expect(thrown?.description.contains("mqtt.usernme: unknown option; did you mean mqtt.username?") == true,
                "\(String(describing: thrown))")
    }
}

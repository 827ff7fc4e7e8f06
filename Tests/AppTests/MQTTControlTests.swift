import Foundation
import Testing
import Graphics
import Imaging
import Logging
import Platform
@testable import PhotoKioskApp
import SystemAccess
import TestSupport

/// The kiosk on a real mosquitto broker on the loopback: Home Assistant discovery (topics and
/// JSON), commands changing the kiosk, a fleet command reaching three kiosks, a broker restart
/// (reconnect and republish) and wrong credentials.
@Suite(.serialized) struct MQTTControlTests {
    struct Frame {
        let app: KioskApp
        let display: HeadlessDisplay
        let folder: String
        let control: MQTTControl
    }

    func makeFrame(_ broker: MQTTBroker, id: String, username: String? = nil, password: String? = nil,
                   logger: Logger? = nil, sources: [(name: String, statusFile: String)] = []) throws -> Frame {
        let (app, display, folder) = try KioskControlTests().makeApp(photoCount: 3)
        app.startKioskSession(resume: nil, seed: 1)
        var settings = KioskConfig.MQTT()
        settings.url = "mqtt://127.0.0.1:\(broker.port)"
        settings.username = username
        let control = MQTTControl(app: app, settings: settings, address: try #require(settings.address), id: id,
                                  password: password, version: "test", logger: logger ?? .init(label: "test"),
                                  backoff: 0.2...1)
        control.sources = sources
        try control.start()
        return Frame(app: app, display: display, folder: folder, control: control)
    }

    /// Turns every frame's loop until `done`; false after `timeout` seconds.
    func turn(_ frames: [Frame], timeout: Double = 20, until done: () -> Bool) throws -> Bool {
        let end = SystemClock.monotonicSeconds() + timeout
        while !done() {
            if SystemClock.monotonicSeconds() > end { return false }
            for frame in frames {
                try frame.app.host.loop.runOnce(timeout: 0.01)
                frame.app.host.pump()
            }
        }
        return true
    }

    /// Publishes `frame`'s state, lets the messages out (a second of turning the loop) and
    /// returns what `broker` retains under `topics`.
    func publishedState(of frame: Frame, on broker: MQTTBroker, _ topics: [String]) throws -> [String: [UInt8]] {
        frame.control.publishState()
        #expect(try turn([frame], timeout: 1) { false } == false)
        return try broker.retained(topics)
    }

    func json(_ bytes: [UInt8]?) throws -> [String: Any] {
        let data = Data(try #require(bytes))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func discoveryAndStateAreRetainedForHomeAssistant() throws {
        let broker = try MQTTBroker()
        let frame = try makeFrame(broker, id: "hall")
        defer { frame.control.stop(); removeTree(frame.folder) }
        let health = StorageHealth()   // its own: other tests' failing writes are not this frame's
        frame.control.storageHealth = health
        #expect(try turn([frame]) { frame.control.client.isSubscribed && frame.app.isContentLoaded })
        let retained = try publishedState(of: frame, on: broker, ["homeassistant/#", "photokiosk/#"])

        let expected = ["button/photokiosk_hall/next", "button/photokiosk_hall/previous", "button/photokiosk_hall/pause",
                        "button/photokiosk_hall/resume", "switch/photokiosk_hall/screen", "switch/photokiosk_hall/slideshow",
                        "sensor/photokiosk_hall/photo", "sensor/photokiosk_hall/photos", "camera/photokiosk_hall/screen",
                        "sensor/photokiosk_hall/storage"]
        for entity in expected {
            let config = try json(retained["homeassistant/\(entity)/config"])
            #expect(config["availability_topic"] as? String == "photokiosk/hall/availability", "\(entity)")
            let device = try #require(config["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["photokiosk_hall"])
            #expect(device["sw_version"] as? String == "test")
            #expect((config["unique_id"] as? String)?.hasPrefix("photokiosk_hall_") == true)
        }
        let next = try json(retained["homeassistant/button/photokiosk_hall/next/config"])
        #expect(next["command_topic"] as? String == "photokiosk/hall/cmd/next")
        let screen = try json(retained["homeassistant/switch/photokiosk_hall/screen/config"])
        #expect(screen["state_topic"] as? String == "photokiosk/hall/state/screen")
        #expect(screen["command_topic"] as? String == "photokiosk/hall/cmd/screen")
        #expect(retained["homeassistant/binary_sensor/photokiosk_hall/motion/config"] == nil, "no motion sensor, no entity")
        #expect(retained["photokiosk/hall/state/motion"] == nil)
        #expect(retained["photokiosk/hall/availability"] == Array("online".utf8))
        #expect(retained["photokiosk/hall/state/photos"] == Array("3".utf8))
        #expect(retained["photokiosk/hall/state/screen"] == Array("ON".utf8))
        #expect(retained["photokiosk/hall/state/slideshow"] == Array("OFF".utf8))
        #expect(retained["photokiosk/hall/state/storage"] == Array("ok".utf8))
        // Failing storage goes out as a changed state (issue 33 item 2).
        health.recordFailure(path: "/var/lib/photokiosk/resume", errno: .readOnlyFileSystem)
        #expect(try publishedState(of: frame, on: broker, ["photokiosk/#"])["photokiosk/hall/state/storage"] == Array("read-only".utf8))
        let image = try #require(retained["photokiosk/hall/screen"], "the camera's screen image")
        #expect(image.starts(with: [0xFF, 0xD8]), "a JPEG")
        #expect(try ImageDecoder.probe(bytes: image).orientedSize.width == 640)
    }

    /// Issue 34, item 7: a sensor per synced source, its state the photo count and its
    /// attributes the last sync and error, from the status file photokiosk-sync writes.
    @Test func eachSourceIsASensor() throws {
        let broker = try MQTTBroker()
        let statusDir = makeTemporaryDirectory("mqtt-sources")
        defer { removeTree(statusDir) }
        try AtomicFile.write(Array("""
            last_sync = "2026-11-28T10:00:00Z"
            photos = 42
            error = "the server refused the login (user, password or key in rclone.conf)"
            failures = 2
            """.utf8), to: statusDir + "/nas.toml")
        let frame = try makeFrame(broker, id: "study", sources: [("nas", statusDir + "/nas.toml"), ("dav", statusDir + "/dav.toml")])
        defer { frame.control.stop(); removeTree(frame.folder) }
        #expect(try turn([frame]) { frame.control.client.isSubscribed && frame.app.isContentLoaded })
        let retained = try publishedState(of: frame, on: broker, ["homeassistant/#", "photokiosk/#"])
        let sensor = try json(retained["homeassistant/sensor/photokiosk_study/source_nas/config"])
        #expect(sensor["state_topic"] as? String == "photokiosk/study/state/source/nas")
        #expect(sensor["json_attributes_topic"] as? String == "photokiosk/study/state/source/nas")
        #expect(sensor["value_template"] as? String == "{{ value_json.photos }}")
        let nas = try json(retained["photokiosk/study/state/source/nas"])
        #expect(nas["photos"] as? Int == 42)
        #expect(nas["last_sync"] as? String == "2026-11-28T10:00:00Z")
        #expect(nas["error"] as? String == "the server refused the login (user, password or key in rclone.conf)")
        let dav = try json(retained["photokiosk/study/state/source/dav"])
        #expect(dav["photos"] as? Int == 0)
        #expect(dav["last_sync"] is NSNull, "not synced yet")
    }

    @Test func eachCommandChangesTheKiosk() throws {
        let broker = try MQTTBroker()
        let frame = try makeFrame(broker, id: "den")
        defer { frame.control.stop(); removeTree(frame.folder) }
        let app = frame.app
        #expect(try turn([frame]) { frame.control.client.isSubscribed && app.isContentLoaded })
        try broker.publish("photokiosk/den/cmd/slideshow", "ON")
        #expect(try turn([frame]) { app.status.isSlideshowRunning && app.sessionDriver?.isSlideshowSettled == true })
        #expect(app.status.photoName == "photo00.jpg")
        try broker.publish("photokiosk/den/cmd/next", "PRESS")
        #expect(try turn([frame]) { app.status.photoName == "photo01.jpg" })
        try broker.publish("photokiosk/den/cmd/previous", "PRESS")
        #expect(try turn([frame]) { app.status.photoName == "photo00.jpg" })
        try broker.publish("photokiosk/den/cmd/pause", "PRESS")
        #expect(try turn([frame]) { app.status.isPaused })
        try broker.publish("photokiosk/den/cmd/resume", "")
        #expect(try turn([frame]) { !app.status.isPaused })
        try broker.publish("photokiosk/den/cmd/screen", "off")
        #expect(try turn([frame]) { !frame.display.isScreenOn })
        try broker.publish("photokiosk/den/cmd/screen", "ON")
        #expect(try turn([frame]) { frame.display.isScreenOn })
        try broker.publish("photokiosk/den/cmd/slideshow", "OFF")
        #expect(try turn([frame]) { !app.status.isSlideshowRunning })
        // The retained state follows.
        #expect(try turn([frame], timeout: 3) { false } == false)
        let retained = try broker.retained(["photokiosk/den/state/#"])
        #expect(retained["photokiosk/den/state/slideshow"] == Array("OFF".utf8))
        #expect(retained["photokiosk/den/state/screen"] == Array("ON".utf8))
    }

    @Test func malformedCommandsAreLoggedAndIgnored() throws {
        let broker = try MQTTBroker()
        let log = LogCapture()
        let frame = try makeFrame(broker, id: "attic", logger: log.logger)
        defer { frame.control.stop(); removeTree(frame.folder) }
        #expect(try turn([frame]) { frame.control.client.isSubscribed && frame.app.isContentLoaded })
        try broker.publish("photokiosk/attic/cmd/screen", "maybe")
        try broker.publish("photokiosk/attic/cmd/explode", "now")
        #expect(try turn([frame]) { log.messages.filter { $0.hasPrefix("MQTT: ignored") }.count == 2 })
        #expect(frame.display.isScreenOn)
        #expect(!frame.app.status.isSlideshowRunning)
    }

    @Test func aFleetCommandReachesEveryFrame() throws {
        let broker = try MQTTBroker()
        let frames = try ["one", "two", "three"].map { try makeFrame(broker, id: $0) }
        defer { for f in frames { f.control.stop(); removeTree(f.folder) } }
        #expect(try turn(frames) { frames.allSatisfy { $0.control.client.isSubscribed && $0.app.isContentLoaded } })
        try broker.publish("photokiosk/all/cmd/slideshow", "ON")
        #expect(try turn(frames) { frames.allSatisfy { $0.app.status.isSlideshowRunning } })
        try broker.publish("photokiosk/two/cmd/slideshow", "OFF")
        #expect(try turn(frames) { !frames[1].app.status.isSlideshowRunning })
        #expect(frames[0].app.status.isSlideshowRunning && frames[2].app.status.isSlideshowRunning, "only two was addressed")
    }

    @Test func aRestartedBrokerGetsTheStateAgain() throws {
        let broker = try MQTTBroker()
        let frame = try makeFrame(broker, id: "porch")
        defer { frame.control.stop(); removeTree(frame.folder) }
        #expect(try turn([frame]) { frame.control.client.isSubscribed })
        broker.stop()
        #expect(try turn([frame]) { frame.control.client.state != .connected }, "the loss is noticed")
        // The kiosk keeps drawing meanwhile: a frame is presented while the broker is away.
        let presented = frame.app.host.framesPresented
        frame.app.window.setNeedsDisplayAll()
        frame.app.host.pump()
        #expect(frame.app.host.framesPresented == presented + 1)
        try broker.start()   // same port, nothing retained (no persistence)
        #expect(try turn([frame]) { frame.control.client.isSubscribed })
        #expect(try turn([frame], timeout: 1) { false } == false)
        let retained = try broker.retained(["homeassistant/#", "photokiosk/porch/#"])
        #expect(retained["photokiosk/porch/availability"] == Array("online".utf8))
        #expect(retained["homeassistant/button/photokiosk_porch/next/config"] != nil, "discovery published again")
        #expect(retained["photokiosk/porch/state/photos"] == Array("3".utf8))
    }

    @Test func aMotionSensorIsAHomeAssistantMotionSensor() throws {
        let broker = try MQTTBroker()
        let frame = try makeFrame(broker, id: "hallway")
        defer { frame.control.stop(); removeTree(frame.folder) }
        let sensor = PresenceDriverTests.ScriptedMotionSensor()
        var presence = KioskConfig.Presence()
        presence.chip = "scripted"
        try frame.app.attachMotionSensor(sensor, settings: presence)
        #expect(try turn([frame]) { frame.control.client.isSubscribed })
        var retained = try publishedState(of: frame, on: broker, ["homeassistant/#", "photokiosk/hallway/#"])
        let config = try json(retained["homeassistant/binary_sensor/photokiosk_hallway/motion/config"])
        #expect(config["device_class"] as? String == "motion")
        #expect(config["state_topic"] as? String == "photokiosk/hallway/state/motion")
        #expect(config["payload_on"] as? String == "ON")
        #expect(retained["photokiosk/hallway/state/motion"] == Array("OFF".utf8))
        sensor.set(true)
        retained = try publishedState(of: frame, on: broker, ["photokiosk/hallway/state/motion"])
        #expect(retained["photokiosk/hallway/state/motion"] == Array("ON".utf8))
    }

    @Test func aBrokerDownAtStartIsNotAnError() throws {
        let broker = try MQTTBroker()
        broker.stop()
        let frame = try makeFrame(broker, id: "loft")   // start() does not throw
        defer { frame.control.stop(); removeTree(frame.folder) }
        #expect(try turn([frame], timeout: 1.5) { frame.control.client.isSubscribed } == false)
        #expect(frame.app.isContentLoaded, "the kiosk showed its photos meanwhile")
        try broker.start()
        #expect(try turn([frame]) { frame.control.client.isSubscribed })
        #expect(try turn([frame], timeout: 1) { false } == false)
        #expect(try broker.retained(["photokiosk/loft/availability"])["photokiosk/loft/availability"] == Array("online".utf8))
    }

    @Test func wrongCredentialsSayWhy() throws {
        let broker = try MQTTBroker(users: [("frame", "right")])
        let log = LogCapture()
        let frame = try makeFrame(broker, id: "shed", username: "frame", password: "wrong", logger: log.logger)
        defer { frame.control.stop(); removeTree(frame.folder) }
        #expect(try turn([frame]) { log.warnings.contains { $0.contains("refused the connection") } })
        #expect(frame.control.client.state != .connected)
        let line = try #require(log.warnings.first { $0.contains("refused the connection") })
        #expect(line.contains("not authori"), "\(line)")
        // And the right password connects.
        let good = try makeFrame(broker, id: "shed2", username: "frame", password: "right")
        defer { good.control.stop(); removeTree(good.folder) }
        #expect(try turn([good]) { good.control.client.isSubscribed })
    }
}

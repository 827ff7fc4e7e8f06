import Basics
import Graphics
import Imaging
import Logging
import Platform
import SystemAccess

/// The kiosk on MQTT: Home Assistant discovery (a device with buttons, switches, sensors, a
/// camera of the screen and, with a motion sensor, a motion binary sensor), commands for this frame (`photokiosk/<id>/cmd/<command>`) and for every
/// frame at once (`photokiosk/all/cmd/<command>`), and its state, retained, so a dashboard that
/// connects later sees it at once. Commands go through `KioskApp.perform`, like the web page's.
///
/// Commands: `next`, `previous`, `pause`, `resume` (any payload), `screen` and `slideshow`
/// (payload `ON` or `OFF`). Anything else: one log line, ignored.
public final class MQTTControl {
    public let id: String
    public let client: MQTTClient
    private unowned let app: KioskApp
    private let discoveryPrefix: String
    private let version: String
    private let logger: Logger
    private var published: KioskStatus?
    /// "ok", "failing" or "read-only" as last published (StorageHealth).
    private var publishedStorage: String?
    /// The storage reported on `state/storage`; a test passes its own.
    var storageHealth = StorageHealth.shared
    private var stateTimer: EventLoop.TimerID?
    private var screenFramesPublished = -1
    private var screenPublishedAt = -Double.infinity
    /// The thread encoding the screen image, joined when its result is back.
    private var encoder: WorkerThread?
    /// Each `[[source]]`'s name and status file (photokiosk-sync writes it): a sensor each, its
    /// state the photo count, its attributes the last sync and error (never a credential).
    public var sources: [(name: String, statusFile: String)] = []
    private var publishedSources: [String: String] = [:]
    private var sourcesReadAt = -Double.infinity
    /// Status files are read again this often (a sync runs every few minutes at most).
    static let sourcesCheckInterval = 10.0

    /// State is compared with what was published this often (a changed value goes out at once
    /// after a command).
    static let stateCheckInterval = 2.0
    /// The screen image goes out at most this often, and only when a frame changed.
    public static let screenImageInterval = 10.0
    static let screenImageWidth = 640

    public var base: String { "photokiosk/\(id)" }
    public static let fleetBase = "photokiosk/all"

    /// `settings` must be valid (`KioskConfig.problems()` empty); `password` is the one from
    /// `password` or `password_file`, read by the caller.
    public init(app: KioskApp, settings: KioskConfig.MQTT, address: MQTTAddress, id: String, password: String?,
                version: String, logger: Logger, backoff: ClosedRange<Double> = 1...60) {
        self.app = app
        self.id = id
        discoveryPrefix = settings.discoveryPrefix
        self.version = version
        self.logger = logger
        var connection = MQTTSettings(host: address.host, port: address.port, useTLS: address.useTLS,
                                      caFile: settings.caFile, username: settings.username, password: password,
                                      clientID: "photokiosk-\(id)")
        connection.will = ("photokiosk/\(id)/availability", "offline")
        connection.backoff = backoff
        client = MQTTClient(settings: connection, loop: app.host.loop, logger: logger)
        client.onConnect = { [unowned self] in self.connected() }
        client.onMessage = { [unowned self] topic, payload in self.received(topic: topic, payload: payload) }
    }

    public func start() throws(PlatformError) {
        try client.start()
        armStateTimer()
    }

    deinit { encoder?.join() }

    public func stop() {
        if let stateTimer { app.host.loop.cancelTimer(stateTimer) }
        stateTimer = nil
        if client.state == .connected { client.publish(base + "/availability", "offline", retain: true, qos: 1) }
        client.stop()
    }

    // MARK: Connection

    private func connected() {
        client.publish(base + "/availability", "online", retain: true, qos: 1)
        for (topic, config) in discoveryMessages() { client.publish(topic, config.text, retain: true, qos: 1) }
        client.subscribe(base + "/cmd/+", qos: 1)
        client.subscribe(Self.fleetBase + "/cmd/+", qos: 1)
        published = nil
        publishedStorage = nil
        screenFramesPublished = -1
        screenPublishedAt = -.infinity
        publishState()
    }

    private func armStateTimer() {
        stateTimer = app.host.loop.addTimer(after: Self.stateCheckInterval) { [weak self] in
            guard let self else { return }
            self.publishState()
            self.armStateTimer()
        }
    }

    // MARK: Commands

    private func received(topic: String, payload: [UInt8]) {
        guard topic.hasPrefix(base + "/cmd/") || topic.hasPrefix(Self.fleetBase + "/cmd/") else { return }
        let name = String(topic.split(separator: "/").last ?? "")
        let text = String(decoding: payload.prefix(64), as: UTF8.self).trimmingWhitespace().uppercased()
        guard let command = Self.command(name, payload: text) else {
            logger.notice("MQTT: ignored \(topic) with payload \"\(text)\": commands are next, previous, pause, resume, and screen or slideshow with ON or OFF")
            return
        }
        switch app.perform(command) {
        case .done: logger.info("MQTT: \(name) \(text) from \(topic)")
        case .refused(let reason): logger.notice("MQTT: \(name) refused: \(reason)")
        }
        publishState()
    }

    static func command(_ name: String, payload: String) -> KioskCommand? {
        let on: Bool? = payload == "ON" ? true : payload == "OFF" ? false : nil
        switch name {
        case "next": return .next
        case "previous": return .previous
        case "pause": return .pause
        case "resume": return .resume
        case "screen": return on.map { .screen(on: $0) }
        case "slideshow": return on.map { .slideshow(on: $0) }
        default: return nil
        }
    }

    // MARK: State

    /// Publishes what changed since the last time (everything after a connect).
    public func publishState() {
        guard client.state == .connected else { return }
        let status = app.status
        let old = published
        func onOff(_ b: Bool) -> String { b ? "ON" : "OFF" }
        if old?.isScreenOn != status.isScreenOn { client.publish(base + "/state/screen", onOff(status.isScreenOn), retain: true) }
        if old?.isSlideshowRunning != status.isSlideshowRunning {
            client.publish(base + "/state/slideshow", onOff(status.isSlideshowRunning), retain: true)
        }
        if old?.isPaused != status.isPaused { client.publish(base + "/state/paused", onOff(status.isPaused), retain: true) }
        if old?.photo != status.photo || old == nil { client.publish(base + "/state/photo", status.photoName ?? "", retain: true) }
        if old?.photoCount != status.photoCount { client.publish(base + "/state/photos", String(status.photoCount), retain: true) }
        if old?.screen != status.screen { client.publish(base + "/state/view", status.screen.rawValue, retain: true) }
        if let motion = status.motion, old?.motion != motion { client.publish(base + "/state/motion", onOff(motion), retain: true) }
        published = status
        let storage = storageHealth.failing.map { $0.isReadOnly ? "read-only" : "failing" } ?? "ok"
        if storage != publishedStorage { client.publish(base + "/state/storage", storage, retain: true) }
        publishedStorage = storage
        publishSources(force: old == nil)
        publishScreenImage()
    }

    /// Each source's state as JSON on `state/source/NAME`, when it changed.
    private func publishSources(force: Bool) {
        let now = app.host.loop.now
        guard !sources.isEmpty, force || now - sourcesReadAt >= Self.sourcesCheckInterval else { return }
        sourcesReadAt = now
        if force { publishedSources = [:] }
        for source in sources {
            let text = Self.sourceState(SourceStatus.read(source.statusFile)).text
            guard publishedSources[source.name] != text else { continue }
            client.publish(base + "/state/source/" + source.name, text, retain: true)
            publishedSources[source.name] = text
        }
    }

    static func sourceState(_ status: SourceStatus?) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        return .object([
            ("photos", .integer(Int64(status?.photos ?? 0))),
            ("last_sync", text(status?.lastSync)),
            ("error", text(status?.error)),
            ("failures", .integer(Int64(status?.failures ?? 0))),
            ("quota", text(status?.quotaNote)),
        ])
    }

    /// The screen as a small JPEG for the camera entity: only when a frame changed, at most
    /// every `screenImageInterval` seconds, encoded off the loop thread.
    private func publishScreenImage() {
        let frames = app.host.framesPresented
        let now = app.host.loop.now
        guard encoder == nil, frames != screenFramesPublished, now - screenPublishedAt >= Self.screenImageInterval else { return }
        let frame = app.host.display.frameBuffer
        guard frame.width > 0, frame.height > 0 else { return }
        let width = min(Self.screenImageWidth, frame.width)
        let small = Bitmap(width: width, height: max(1, frame.height * width / frame.width))
        Canvas(target: small).draw(frame, in: Rect(x: 0, y: 0, width: Double(small.width), height: Double(small.height)))
        screenFramesPublished = frames
        screenPublishedAt = now
        let topic = base + "/screen"
        let mailbox = app.host.loop.mailbox
        let owner = WeakLoopBound(self, on: mailbox.thread)
        encoder = WorkerThread(name: "pk-mqtt-jpeg") {
            let jpeg = try? JPEGEncoder.encode(small, quality: 80)
            mailbox.post {
                guard let control = owner.value else { return }
                control.encoder?.join()   // it has posted this result: only its return is left
                control.encoder = nil
                if let jpeg { control.client.publish(topic, jpeg, retain: true) }
            }
        }
    }

    // MARK: Home Assistant discovery

    /// (topic, config) for every entity, published retained at each connect.
    func discoveryMessages() -> [(String, JSONValue)] {
        let node = "photokiosk_\(id)"
        let device: JSONValue = .object([
            ("identifiers", .array([.string(node)])),
            ("name", .string("PhotoKiosk \(id)")),
            ("model", "PhotoKiosk"),
            ("manufacturer", "PhotoKiosk"),
            ("sw_version", .string(version)),
        ])
        func entity(_ component: String, _ object: String, _ name: String, _ fields: [(String, JSONValue)]) -> (String, JSONValue) {
            let topic = "\(discoveryPrefix)/\(component)/\(node)/\(object)/config"
            return (topic, .object([
                ("name", .string(name)),
                ("unique_id", .string("\(node)_\(object)")),
                ("object_id", .string("\(node)_\(object)")),
                ("availability_topic", .string(base + "/availability")),
                ("device", device),
            ] + fields))
        }
        func button(_ command: String, _ name: String, _ icon: String) -> (String, JSONValue) {
            entity("button", command, name, [("command_topic", .string(base + "/cmd/" + command)),
                                            ("payload_press", "PRESS"), ("icon", .string(icon))])
        }
        func toggle(_ what: String, _ name: String, _ icon: String) -> (String, JSONValue) {
            entity("switch", what, name, [("command_topic", .string(base + "/cmd/" + what)),
                                         ("state_topic", .string(base + "/state/" + what)),
                                         ("payload_on", "ON"), ("payload_off", "OFF"), ("icon", .string(icon))])
        }
        // A frame with a motion sensor shows it as Home Assistant's motion binary sensor.
        let motion = app.status.motion == nil ? [] : [
            entity("binary_sensor", "motion", "Motion", [("state_topic", .string(base + "/state/motion")),
                                                         ("payload_on", "ON"), ("payload_off", "OFF"),
                                                         ("device_class", "motion")]),
        ]
        return [
            button("next", "Next photo", "mdi:skip-next"),
            button("previous", "Previous photo", "mdi:skip-previous"),
            button("pause", "Pause slideshow", "mdi:pause"),
            button("resume", "Resume slideshow", "mdi:play"),
            toggle("screen", "Screen", "mdi:monitor"),
            toggle("slideshow", "Slideshow", "mdi:image-multiple"),
            entity("sensor", "photo", "Current photo", [("state_topic", .string(base + "/state/photo")), ("icon", "mdi:image")]),
            entity("sensor", "photos", "Photos", [("state_topic", .string(base + "/state/photos")),
                                                  ("unit_of_measurement", "photos"), ("state_class", "measurement"),
                                                  ("icon", "mdi:folder-image")]),
            entity("camera", "screen", "Screen image", [("topic", .string(base + "/screen"))]),
            entity("sensor", "storage", "Storage", [("state_topic", .string(base + "/state/storage")),
                                                    ("entity_category", "diagnostic"), ("icon", "mdi:sd")]),
        ] + motion + sources.map { source in
            // A sensor per synced source: the photo count, with the last sync and error as attributes.
            entity("sensor", "source_" + source.name, "Source \(source.name)", [
                ("state_topic", .string(base + "/state/source/" + source.name)),
                ("value_template", "{{ value_json.photos }}"),
                ("json_attributes_topic", .string(base + "/state/source/" + source.name)),
                ("unit_of_measurement", "photos"), ("icon", "mdi:cloud-sync"),
            ])
        }
    }
}

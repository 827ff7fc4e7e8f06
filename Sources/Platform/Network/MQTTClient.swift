import CMQTT
import CMosquitto
import Glibc
import Logging
import SystemPackage

/// Where and how to reach an MQTT broker.
public struct MQTTSettings: Equatable, Sendable {
    public var host: String
    public var port: Int
    /// TLS (mqtts://); `caFile` nil uses the system's certificate folder.
    public var useTLS: Bool
    public var caFile: String?
    public var username: String?
    public var password: String?
    public var clientID: String
    public var keepAliveSeconds: Int = 30
    /// Published by the broker when the connection is lost (the last will), retained.
    public var will: (topic: String, payload: String)?
    /// Waits before reconnecting: doubles from the first to the last after each failure.
    public var backoff: ClosedRange<Double> = 1...60

    public init(host: String, port: Int, useTLS: Bool = false, caFile: String? = nil, username: String? = nil,
                password: String? = nil, clientID: String) {
        self.host = host
        self.port = port
        self.useTLS = useTLS
        self.caFile = caFile
        self.username = username
        self.password = password
        self.clientID = clientID
    }

    public static func == (a: MQTTSettings, b: MQTTSettings) -> Bool {
        a.host == b.host && a.port == b.port && a.useTLS == b.useTLS && a.caFile == b.caFile && a.username == b.username
            && a.password == b.password && a.clientID == b.clientID && a.keepAliveSeconds == b.keepAliveSeconds
            && a.will?.topic == b.will?.topic && a.will?.payload == b.will?.payload && a.backoff == b.backoff
    }
}

/// An MQTT connection on libmosquitto, driven by the app's event loop: its socket is in our
/// epoll (no thread of libmosquitto's), keep-alives run off a loop timer, and a lost or refused
/// connection is retried with backoff. Nothing here blocks a frame: the connect is non-blocking
/// (only a host name lookup can wait; use an address on a network without local DNS).
///
/// Not thread-safe: use it on the loop thread.
public final class MQTTClient {
    public enum State: Equatable, Sendable { case disconnected, connecting, connected }

    public let settings: MQTTSettings
    public private(set) var state: State = .disconnected
    /// Connected, and the broker has acknowledged every subscription asked since: from now on
    /// no message on those topics is missed (before the SUBACK, a publish can pass unseen).
    public var isSubscribed: Bool { state == .connected && unacknowledgedSubscriptions == 0 }
    private var unacknowledgedSubscriptions = 0
    /// Called on the loop thread after every successful (re)connect: subscribe and publish here.
    public var onConnect: (() -> Void)?
    /// A message on a subscribed topic.
    public var onMessage: ((_ topic: String, _ payload: [UInt8]) -> Void)?

    private let loop: EventLoop
    private let logger: Logger
    private var handle: OpaquePointer?
    private var watchedFD: Int32 = -1
    private var miscTimer: EventLoop.TimerID?
    private var retryTimer: EventLoop.TimerID?
    private var retryDelay: Double
    private var lastProblem: String?
    private var stopped = false

    /// libmosquitto is loaded when the first client starts (see CMQTT), not at startup: nil, or
    /// why it cannot be used.
    private static let libraryProblem: PlatformError? = {
        if let reason = libraryLoadProblem() {
            return .unsupported("MQTT needs libmosquitto, which is not available (\(reason)); install the libmosquitto1 package")
        }
        return cmqtt_lib_init() == MOSQ_ERR_SUCCESS.rawValue ? nil : .failed("mosquitto_lib_init", errno: ENOMEM)
    }()

    /// nil once libmosquitto is loaded, else why it cannot be (loads it: `photokiosk doctor` asks).
    public static func libraryLoadProblem() -> String? {
        var error = [CChar](repeating: 0, count: 512)
        guard !cmqtt_load(&error, error.count) else { return nil }
        return String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public init(settings: MQTTSettings, loop: EventLoop, logger: Logger) {
        self.settings = settings
        self.loop = loop
        self.logger = logger
        retryDelay = settings.backoff.lowerBound
    }

    deinit { stop() }

    /// Starts connecting; a broker that is down is retried, not an error.
    public func start() throws(PlatformError) {
        if let problem = Self.libraryProblem { throw problem }
        guard handle == nil else { return }
        stopped = false
        guard let mosq = cmqtt_new(settings.clientID, true, Unmanaged.passUnretained(self).toOpaque()) else {
            throw .failed("mosquitto_new", errno: errno)
        }
        handle = mosq
        try configure(mosq)
        connect(first: true)
    }

    /// Publishes now if connected (queued in the socket's buffer otherwise dropped: state is
    /// republished on every connect). Returns false when not connected.
    @discardableResult
    public func publish(_ topic: String, _ payload: [UInt8], retain: Bool = false, qos: Int32 = 0) -> Bool {
        guard let handle, state == .connected else { return false }
        let rc = payload.withUnsafeBytes { bytes in
            cmqtt_publish(handle, nil, topic, Int32(bytes.count), bytes.baseAddress, qos, retain)
        }
        if rc != MOSQ_ERR_SUCCESS.rawValue { connectionLost(rc) ; return false }
        updateWriteInterest()
        return true
    }

    @discardableResult
    public func publish(_ topic: String, _ text: String, retain: Bool = false, qos: Int32 = 0) -> Bool {
        publish(topic, Array(text.utf8), retain: retain, qos: qos)
    }

    public func subscribe(_ pattern: String, qos: Int32 = 0) {
        guard let handle, state == .connected else { return }
        let rc = cmqtt_subscribe(handle, nil, pattern, qos)
        if rc != MOSQ_ERR_SUCCESS.rawValue { connectionLost(rc); return }
        unacknowledgedSubscriptions += 1
        updateWriteInterest()
    }

    /// Disconnects cleanly (no last will) and frees the connection.
    public func stop() {
        stopped = true
        if let retryTimer { loop.cancelTimer(retryTimer) }
        retryTimer = nil
        if let miscTimer { loop.cancelTimer(miscTimer) }
        miscTimer = nil
        if let handle {
            if state == .connected {
                cmqtt_disconnect(handle)
                _ = cmqtt_loop_write(handle, 1)
            }
            unwatchSocket()
            cmqtt_destroy(handle)
        }
        handle = nil
        state = .disconnected
    }

    // MARK: Connection

    private func configure(_ mosq: OpaquePointer) throws(PlatformError) {
        if let username = settings.username {
            try check(cmqtt_username_pw_set(mosq, username, settings.password), "mosquitto_username_pw_set")
        }
        if let will = settings.will {
            let bytes = Array(will.payload.utf8)
            try check(cmqtt_will_set(mosq, will.topic, Int32(bytes.count), bytes, 1, true), "mosquitto_will_set")
        }
        if settings.useTLS {
            let capath = settings.caFile == nil ? "/etc/ssl/certs" : nil
            try check(cmqtt_tls_set(mosq, settings.caFile, capath, nil, nil, nil), "mosquitto_tls_set")
        }
        cmqtt_connect_callback_set(mosq) { _, context, rc in
            MQTTClient.from(context)?.connected(rc)
        }
        cmqtt_disconnect_callback_set(mosq) { _, context, rc in
            MQTTClient.from(context)?.disconnected(rc)
        }
        cmqtt_subscribe_callback_set(mosq) { _, context, _, _, _ in
            guard let client = MQTTClient.from(context) else { return }
            client.unacknowledgedSubscriptions = max(0, client.unacknowledgedSubscriptions - 1)
        }
        cmqtt_message_callback_set(mosq) { _, context, message in
            guard let client = MQTTClient.from(context), let message = message?.pointee, let topic = message.topic else { return }
            let payload = message.payload.map {
                Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen)))
            } ?? []
            client.onMessage?(String(cString: topic), payload)
        }
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> MQTTClient? {
        context.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
    }

    private func check(_ rc: Int32, _ call: String) throws(PlatformError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw .failed("\(call): \(String(cString: cmqtt_strerror(rc)))", errno: EINVAL) }
    }

    private func connect(first: Bool) {
        guard let handle, !stopped else { return }
        state = .connecting
        let rc = first
            ? cmqtt_connect_async(handle, settings.host, Int32(settings.port), Int32(settings.keepAliveSeconds))
            : cmqtt_reconnect_async(handle)
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            let reason = rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: cmqtt_strerror(rc))
            report("cannot reach the MQTT broker \(settings.host):\(settings.port): \(reason)")
            scheduleRetry()
            return
        }
        watchSocket()
        armMiscTimer()
    }

    private func watchSocket() {
        guard let handle else { return }
        unwatchSocket()
        let fd = cmqtt_socket(handle)
        guard fd >= 0 else { return }
        do throws(PlatformError) {
            try loop.watchSocket(FileDescriptor(rawValue: fd), readable: { [weak self] in self?.socketReadable() },
                                 writable: { [weak self] in self?.socketWritable() })
            watchedFD = fd
            updateWriteInterest()
        } catch {
            report("MQTT: cannot watch the broker's socket: \(error)")
        }
    }

    private func unwatchSocket() {
        if watchedFD >= 0 { loop.unwatch(FileDescriptor(rawValue: watchedFD)) }
        watchedFD = -1
    }

    private func socketReadable() {
        guard let handle else { return }
        let rc = cmqtt_loop_read(handle, 1)
        if rc != MOSQ_ERR_SUCCESS.rawValue { connectionLost(rc); return }
        updateWriteInterest()
    }

    private func socketWritable() {
        guard let handle else { return }
        let rc = cmqtt_loop_write(handle, 1)
        if rc != MOSQ_ERR_SUCCESS.rawValue { connectionLost(rc); return }
        updateWriteInterest()
    }

    private func updateWriteInterest() {
        guard let handle, watchedFD >= 0 else { return }
        // A reconnect inside libmosquitto can change the socket.
        if cmqtt_socket(handle) != watchedFD { watchSocket(); return }
        loop.setWantsWrite(FileDescriptor(rawValue: watchedFD), cmqtt_want_write(handle))
    }

    /// Keep-alive pings and timeouts (mosquitto_loop_misc), once a second while a socket is open.
    private func armMiscTimer() {
        if let miscTimer { loop.cancelTimer(miscTimer) }
        miscTimer = loop.addTimer(after: 1) { [weak self] in
            guard let self, let handle = self.handle else { return }
            self.miscTimer = nil
            guard self.state != .disconnected else { return }
            let rc = cmqtt_loop_misc(handle)
            if rc != MOSQ_ERR_SUCCESS.rawValue { self.connectionLost(rc); return }
            self.updateWriteInterest()
            self.armMiscTimer()
        }
    }

    private func connected(_ rc: Int32) {
        guard rc == 0 else {
            report("the MQTT broker \(settings.host):\(settings.port) refused the connection: \(String(cString: cmqtt_connack_string(rc)))")
            // A refusal (wrong password) is not fixed by hammering: wait the longest.
            retryDelay = settings.backoff.upperBound
            connectionLost(MOSQ_ERR_CONN_REFUSED.rawValue, quiet: true)
            return
        }
        state = .connected
        unacknowledgedSubscriptions = 0
        retryDelay = settings.backoff.lowerBound
        lastProblem = nil
        logger.info("MQTT: connected to \(settings.host):\(settings.port) as \(settings.clientID)")
        onConnect?()
        updateWriteInterest()
    }

    private func disconnected(_ rc: Int32) {
        guard !stopped, rc != 0 else { return }
        connectionLost(MOSQ_ERR_CONN_LOST.rawValue)
    }

    private func connectionLost(_ rc: Int32, quiet: Bool = false) {
        guard !stopped, state != .disconnected || retryTimer == nil else { return }
        if state == .connected { logger.warning("MQTT: connection to \(settings.host):\(settings.port) lost (\(String(cString: cmqtt_strerror(rc)))); reconnecting") }
        state = .disconnected
        unwatchSocket()
        if let miscTimer { loop.cancelTimer(miscTimer) }
        miscTimer = nil
        scheduleRetry()
    }

    private func scheduleRetry() {
        guard !stopped, retryTimer == nil else { return }
        state = .disconnected
        let delay = retryDelay
        retryDelay = min(settings.backoff.upperBound, retryDelay * 2)
        retryTimer = loop.addTimer(after: delay) { [weak self] in
            self?.retryTimer = nil
            self?.connect(first: false)
        }
    }

    /// One log line per distinct problem, so a broker that stays down does not fill the journal.
    private func report(_ problem: String) {
        guard problem != lastProblem else { return }
        lastProblem = problem
        logger.warning("\(problem)")
    }
}

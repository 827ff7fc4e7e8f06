import CCEC
import Glibc
import SystemAccess
import SystemPackage

/// An HDMI-CEC adapter through the kernel's CEC API (/dev/cecN; see CCEC.h for why not libcec):
/// the kiosk claims a Playback device on it, as initiator and follower. Sending never waits on
/// the loop: results, replies, received messages and address changes come back through the
/// descriptor the event loop watches (messages readable, events as EPOLLPRI on a duplicate).
public final class CECAdapter: TVLink {
    public let path: String
    /// "vc4 / vc4-hdmi-0", the driver and the adapter as the kernel names them.
    public let adapterName: String
    /// The DRM card and connector this adapter belongs to, when the kernel says (>= 5.10).
    public let drmConnector: CECAdapterChoice.DRMConnectorLink?
    private let device: FileDescriptor
    /// The same open file as `device` under another number, watched for events (EPOLLPRI): the
    /// loop keeps one handler per descriptor.
    private var events: FileDescriptor?
    /// Messages sent and not yet reported, by the kernel's sequence number.
    private var pending: [UInt32: CECMessage] = [:]

    /// CEC_TX_STATUS_OK and CEC_RX_STATUS_OK (linux/cec.h): the message was acknowledged; the reply came.
    static let transmitOK: UInt8 = 1, receiveOK: UInt8 = 1

    /// The name the TV's menu shows for the kiosk.
    public static let osdName = "PhotoKiosk"

    /// Opens `path` non-blocking. Throws with a message fit for one log line.
    public init(path: String) throws(PlatformError) {
        self.path = path
        let fd = try openDevice(path, flags: O_RDWR | O_NONBLOCK)
        device = FileDescriptor(rawValue: fd)
        var driver = [CChar](repeating: 0, count: 32), name = [CChar](repeating: 0, count: 32)
        var available: UInt32 = 0, capabilities: UInt32 = 0
        let caps = ccec_caps(fd, &driver, &name, &available, &capabilities)
        guard caps == 0 else {
            device.closeQuietly()
            throw .failed("CEC_ADAP_G_CAPS", path: path, errno: -caps)
        }
        adapterName = "\(Self.text(driver)) / \(Self.text(name))"
        var card: UInt32 = 0, connector: UInt32 = 0
        drmConnector = ccec_drm_connector(fd, &card, &connector) == 0
            ? CECAdapterChoice.DRMConnectorLink(card: card, connectorID: connector) : nil
    }

    deinit {
        events?.closeQuietly()
        device.closeQuietly()
    }

    private static func text(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// /dev/cec0, /dev/cec1, ... that exist, in numeric order.
    public static func devicePaths() -> [String] {
        let names = (entryNames(inDirectory: "/dev") ?? []).map { String(decoding: $0, as: UTF8.self) }
        return names.filter { $0.hasPrefix("cec") && Int($0.dropFirst(3)) != nil }
            .sorted { Int($0.dropFirst(3))! < Int($1.dropFirst(3))! }
            .map { "/dev/" + $0 }
    }

    public var physicalAddress: UInt16 {
        var address: UInt16 = 0xffff
        return ccec_physical_address(device.rawValue, &address) == 0 ? address : 0xffff
    }

    public var logicalAddress: UInt8? {
        var address: UInt8 = 0xf, configured: UInt8 = 0
        guard ccec_logical_address(device.rawValue, &address, &configured) == 0, address != 0xf else { return nil }
        return address
    }

    /// Claims a Playback device and receives as follower. The claim finishes later (or, with no
    /// HDMI sink, once one appears): `.addressesChanged` says when.
    /// `waiting`: the descriptor blocks until the claim is done (for `doctor`, which has no loop).
    public func claimPlayback(waiting: Bool = false) throws(PlatformError) {
        let flags = fcntl(device.rawValue, F_GETFL)
        if waiting { _ = fcntl(device.rawValue, F_SETFL, flags & ~O_NONBLOCK) }
        let claim = ccec_claim_playback(device.rawValue, Self.osdName)
        if waiting { _ = fcntl(device.rawValue, F_SETFL, flags) }
        guard claim == 0 else { throw .failed("CEC_ADAP_S_LOG_ADDRS", path: path, errno: -claim) }
        let mode = ccec_become_follower(device.rawValue)
        guard mode == 0 else { throw .failed("CEC_S_MODE", path: path, errno: -mode) }
    }

    /// Gives the logical address back (`doctor`, after its own claim).
    public func release() { _ = ccec_release(device.rawValue) }

    public func send(_ message: CECMessage, reply: UInt8?) throws(PlatformError) {
        let transmitted = try transmit(message, reply: reply)
        pending[transmitted.sequence] = message
    }

    /// Sends `message` and waits for its result (and `reply`, up to a second): for `doctor`,
    /// which has no loop. The descriptor is blocking for the call.
    public func sendAndWait(_ message: CECMessage, reply: UInt8?) throws(PlatformError) -> (acknowledged: Bool, reply: CECMessage?) {
        let flags = fcntl(device.rawValue, F_GETFL)
        _ = fcntl(device.rawValue, F_SETFL, flags & ~O_NONBLOCK)
        defer { _ = fcntl(device.rawValue, F_SETFL, flags) }
        let transmitted = try transmit(message, reply: reply)
        let acknowledged = transmitted.txStatus & Self.transmitOK != 0
        let replied = reply != nil && transmitted.rxStatus & Self.receiveOK != 0
        return (acknowledged, replied ? CECMessage(bytes: transmitted.answer) : nil)
    }

    /// CEC_TRANSMIT with `reply` awaited for up to a second: on a non-blocking descriptor the
    /// kernel only queues the message (the statuses come later, by `sequence`); on a blocking one
    /// it returns with the statuses and the reply's bytes.
    private func transmit(_ message: CECMessage, reply: UInt8?) throws(PlatformError)
        -> (sequence: UInt32, txStatus: UInt8, rxStatus: UInt8, answer: [UInt8]) {
        var sequence: UInt32 = 0, tx: UInt8 = 0, rx: UInt8 = 0, length: UInt32 = 0
        var answer = [UInt8](repeating: 0, count: 16)
        let bytes = message.bytes
        let result = ccec_transmit(device.rawValue, bytes, UInt32(bytes.count), reply ?? 0, 1000,
                                   &sequence, &tx, &rx, &answer, &length)
        guard result == 0 else { throw .failed("CEC_TRANSMIT \(message)", path: path, errno: -result) }
        return (sequence, tx, rx, Array(answer.prefix(Int(length))))
    }

    /// Reports what the adapter hears to `handler` on the loop thread until `detach`.
    public func attach(to loop: EventLoop, handler: @escaping (CECIncoming) -> Void) throws(PlatformError) {
        let duplicate = dup(device.rawValue)
        guard duplicate >= 0 else { throw .failed("dup", path: path, errno: errno) }
        events = FileDescriptor(rawValue: duplicate)
        try loop.watch(device) { [weak self] in self?.readMessages(handler) }
        try loop.watchPriority(FileDescriptor(rawValue: duplicate)) { [weak self] in self?.readEvents(handler) }
        // What happened before the watch (a claim that finished at once).
        readEvents(handler)
        readMessages(handler)
    }

    public func detach(from loop: EventLoop) {
        loop.unwatch(device)
        if let events {
            loop.unwatch(events)
            events.closeQuietly()
            self.events = nil
        }
    }

    private func readMessages(_ handler: (CECIncoming) -> Void) {
        var bytes = [UInt8](repeating: 0, count: 16)
        var sequence: UInt32 = 0, tx: UInt8 = 0, rx: UInt8 = 0
        while true {
            let length = ccec_receive(device.rawValue, &bytes, &sequence, &tx, &rx)
            guard length >= 0 else { return }
            let message = CECMessage(bytes: Array(bytes.prefix(Int(length))))
            if sequence != 0, let sent = pending.removeValue(forKey: sequence) {
                let replied = rx & Self.receiveOK != 0
                handler(.transmitted(sent, acknowledged: tx & Self.transmitOK != 0,
                                     reply: replied && message != sent ? message : nil))
            } else if let message {
                handler(.received(message))
            }
        }
    }

    private func readEvents(_ handler: (CECIncoming) -> Void) {
        var physical: UInt16 = 0xffff, mask: UInt16 = 0
        while true {
            let event = ccec_event(device.rawValue, &physical, &mask)
            guard event >= 0 else { return }
            if event == 1 {
                let logical = (0..<15).first { mask & (1 << UInt16($0)) != 0 }.map { UInt8($0) }
                handler(.addressesChanged(physical: physical, logical: logical))
            } else if event == 2 {
                handler(.lostMessages)
            }
        }
    }
}

import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking TCP connection to a port on this computer (127.0.0.1 or ::1) and nothing else:
/// the kiosk's only client socket, for asking a local service (Syncthing's REST API) without a
/// thread. The caller watches `descriptor` on its event loop: writable means the connection is
/// made (or failed: `pendingError`), readable means `receive` has bytes or the end.
public final class LoopbackStreamSocket {
    public let descriptor: FileDescriptor

    /// Starts connecting to `port` on the loopback address (`ipv6`: ::1); returns at once.
    public init(port: UInt16, ipv6: Bool) throws(SystemError) {
        let family = ipv6 ? AF_INET6 : AF_INET
        let fd = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError("socket", errno: SystemError.lastErrno) }
        let result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        let code = SystemError.lastErrno
        guard result == 0 || code == .nowInProgress else {
            _ = Glibc.close(fd)
            throw SystemError("connect", errno: code)
        }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { try? descriptor.close() }

    /// The outcome of the connect once the socket is writable: nil when it is made.
    public func pendingError() -> SystemError? {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor.rawValue, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else {
            return SystemError("getsockopt", errno: SystemError.lastErrno)
        }
        return code == 0 ? nil : SystemError("connect", errno: Errno(rawValue: code))
    }

    /// Sends what the socket takes now; returns how many bytes went (0 when it would block).
    public func send(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> Int {
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent >= 0 { return sent }
        let code = SystemError.lastErrno
        if code == .wouldBlock || code == .interrupted { return 0 }
        throw SystemError("send", errno: code)
    }

    /// Up to `limit` bytes that have arrived: nil when none are there yet, [] at the end.
    public func receive(limit: Int) throws(SystemError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: max(limit, 1))
        let got = buffer.withUnsafeMutableBytes { Glibc.recv(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
        if got >= 0 { return Array(buffer[0..<got]) }
        let code = SystemError.lastErrno
        if code == .wouldBlock || code == .interrupted { return nil }
        throw SystemError("recv", errno: code)
    }
}

import Glibc

/// Bytes from the kernel's random generator (getrandom), for session ids and temporary names.
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = result.withUnsafeMutableBytes { getrandom($0.baseAddress! + filled, count - filled, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                fatalError("getrandom failed: \(String(cString: strerror(errno)))")
            }
            filled += n
        }
        return result
    }

    /// `count` random bytes as lower-case hex.
    public static func hex(_ count: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes(count).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}

import SystemAccess

/// Unguessable bytes for session ids and temporary names: Swift's system generator, which on
/// Linux reads the kernel's getrandom (cryptographically secure).
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// `count` random bytes as lower-case hex.
    public static func hex(_ count: Int) -> String {
        hexDigits(bytes(count))
    }
}

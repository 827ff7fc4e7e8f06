import Basics
import SystemAccess
import SystemPackage

/// The remote page's token as the frame's info screen last made it ("New code"), kept in the
/// state directory because the service cannot write /etc (ProtectSystem=strict). When the file
/// is there it wins over `[remote] token` in config.toml; until then the config's token (the
/// package writes a random one at install) is the one the QR code carries.
public struct PairingTokenStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The saved token, or nil when there is none (or it is not a usable token).
    public func load() -> String? {
        guard let bytes = AtomicFile.read(path, limit: 4096) else { return nil }
        let token = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        return KioskConfig.Remote.tokenProblem(token) == nil ? token : nil
    }

    /// Replaces the saved token atomically (a power cut leaves the old one or the new one); the
    /// unit's UMask=0077 keeps it to the photokiosk user.
    public func save(_ token: String) throws(AtomicFile.WriteError) {
        try AtomicFile.write(Array((token + "\n").utf8), to: path)
    }
}

/// The encoded formats the decoder understands.
public enum ImageFormat: String, Hashable, Sendable, CustomStringConvertible {
    case jpeg
    case png

    /// Recognises a format from the first bytes (the file name is never trusted).
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
        let head = Array(bytes.prefix(8))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        return nil
    }

    public var description: String { self == .jpeg ? "JPEG" : "PNG" }
}

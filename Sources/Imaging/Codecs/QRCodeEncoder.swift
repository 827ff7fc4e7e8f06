import CQRENCODE
import Graphics

/// Text (a pairing address) as a QR code, through libqrencode, loaded with dlopen the first time
/// a code is made (CQRENCODE), so a frame that never shows one does not map it.
public enum QRCodeEncoder {
    public enum Failure: Error, CustomStringConvertible {
        /// libqrencode is not installed (the package depends on libqrencode4).
        case libraryMissing(String)
        /// The text does not fit in the largest QR code, or libqrencode ran out of memory.
        case encodingFailed(String)

        public var description: String {
            switch self {
            case .libraryMissing(let reason): return "QR codes need libqrencode (\(reason))"
            case .encodingFailed(let text): return "the text could not be encoded as a QR code (\(text.utf8.count) bytes)"
            }
        }
    }

    /// The smallest code that holds `text` as bytes, with error correction level M (15 % of the
    /// code may be unreadable: a glare on the screen, a finger on the corner).
    public static func encode(_ text: String) throws(Failure) -> QRModules {
        var message = [CChar](repeating: 0, count: 256)
        guard cqrencode_load(&message, message.count) else {
            throw .libraryMissing(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let code = cqrencode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { throw .encodingFailed(text) }
        defer { cqrencode_free(code) }
        let width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour (1: dark); the other bits describe its role.
        let dark = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
        return QRModules(width: width, dark: dark)
    }
}

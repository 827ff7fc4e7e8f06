import CPNG
import Graphics

/// Writes 8-bit RGB PNGs with libpng (screenshots, golden images). The X/alpha byte is dropped.
public enum PNGEncoder {
    /// `compression`: zlib level 0 (fastest) ... 9 (smallest).
    public static func encode(_ bitmap: Bitmap, compression: Int = 6) throws(ImagingError) -> [UInt8] {
        guard bitmap.format != .a8 else { throw ImagingError(.internalFailure, "PNG encoder takes 32-bit bitmaps") }
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw ImagingError(.internalFailure, "cannot encode an empty \(bitmap.width)x\(bitmap.height) PNG")
        }
        var message = [CChar](repeating: 0, count: 256)
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = cpng_encode_bgrx(bitmap.pixels.assumingMemoryBound(to: UInt8.self), UInt32(bitmap.width),
                                      UInt32(bitmap.height), bitmap.stride, Int32(min(9, max(0, compression))),
                                      &out, &length, &message, message.count)
        guard status == CPNG_OK, let out else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImagingError(.internalFailure, "PNG encoding failed: \(text)")
        }
        defer { cpng_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }

    /// Encodes and writes atomically (temporary file renamed into place).
    public static func write(_ bitmap: Bitmap, to path: String, compression: Int = 6) throws(ImagingError) {
        do throws(ImagingError) {
            try FileReader.write(encode(bitmap, compression: compression), to: path)
        } catch {
            throw error.attributed(to: path)
        }
    }
}

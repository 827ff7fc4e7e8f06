import Graphics

/// The on-disk thumbnail format: a small header, the key, then XRGB8888 rows, so reading one back
/// is a read into a bitmap and a checksum — no image decoder.
///
/// ```
/// offset size
///  0     4   magic "PKTH"
///  4     4   version (1), little-endian like every field
///  8     4   width
/// 12     4   height
/// 16     4   key length K
/// 20     8   pixel checksum (`pixelChecksum` of the rows)
/// 28     K   the key (`ThumbnailCacheKey.serialized`)
/// 28+K   w*h*4  pixels, rows without padding
/// ```
enum ThumbnailFile {
    static let magic: [UInt8] = Array("PKTH".utf8)
    static let version: UInt32 = 1
    static let headerSize = 28
    static let suffix = ".pkt"
    /// Thumbnails are small; anything claiming more is corrupt, checked before allocating.
    static let maxDimension = 8192

    struct Header {
        var width: Int
        var height: Int
        var keyLength: Int
        var checksum: UInt64

        var pixelBytes: Int { width * height * 4 }
        var fileSize: Int { ThumbnailFile.headerSize + keyLength + pixelBytes }
    }

    static func header(for bitmap: Bitmap, key: [UInt8], checksum: UInt64) -> [UInt8] {
        var bytes = magic
        appendLittleEndian(version, to: &bytes)
        appendLittleEndian(UInt32(bitmap.width), to: &bytes)
        appendLittleEndian(UInt32(bitmap.height), to: &bytes)
        appendLittleEndian(UInt32(key.count), to: &bytes)
        appendLittleEndian(checksum, to: &bytes)
        return bytes + key
    }

    /// Parses the fixed header; nil when it is not a version-1 thumbnail with sane dimensions.
    static func parseHeader(_ bytes: [UInt8]) -> Header? {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic else { return nil }
        func field<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }
        guard field(4, UInt32.self) == version else { return nil }
        let width = Int(field(8, UInt32.self)), height = Int(field(12, UInt32.self))
        let keyLength = Int(field(16, UInt32.self))
        guard (1...maxDimension).contains(width), (1...maxDimension).contains(height),
              keyLength <= 1 << 16 else { return nil }
        return Header(width: width, height: height, keyLength: keyLength,
                      checksum: field(20, UInt64.self))
    }

    /// The pixel bytes of an XRGB bitmap without row padding, as the file stores them.
    static func packedPixels(of bitmap: Bitmap) -> [UInt8] {
        let rowBytes = bitmap.width * 4
        var bytes = [UInt8](repeating: 0, count: rowBytes * bitmap.height)
        bytes.withUnsafeMutableBytes { out in
            for y in 0..<bitmap.height {
                (out.baseAddress! + y * rowBytes).copyMemory(from: bitmap.row(y), byteCount: rowBytes)
            }
        }
        return bytes
    }
}

import Graphics

/// The on-disk thumbnail format: a small header, the key, then XRGB8888 rows, so reading one back
/// is a read into a bitmap and a checksum — no image decoder.
///
/// ```
/// offset size
///  0     4   magic "PKTH"
///  4     4   version (2), little-endian like every field
///  8     4   width
/// 12     4   height
/// 16     4   key length K
/// 20     8   pixel checksum (`pixelChecksum` of the rows)
/// 28     8   a clip's duration in nanoseconds, as a signed number; -1 for a still
/// 36     K   the key (`ThumbnailCacheKey.serialized`)
/// 36+K   w*h*4  pixels, rows without padding
/// ```
///
/// Version 1 had no duration (its key started at 28); such an entry is not read but removed
/// and made again, so a clip cached before never shows without its duration.
enum ThumbnailFile {
    static let magic: [UInt8] = Array("PKTH".utf8)
    static let version: UInt32 = 2
    static let headerSize = 36
    static let suffix = ".pkt"
    /// Thumbnails are small; anything claiming more is corrupt, checked before allocating.
    static let maxDimension = 8192

    struct Header {
        var width: Int
        var height: Int
        var keyLength: Int
        var checksum: UInt64
        var clipDuration: Duration?

        var pixelBytes: Int { width * height * 4 }
        var fileSize: Int { ThumbnailFile.headerSize + keyLength + pixelBytes }
    }

    static func header(for bitmap: Bitmap, key: [UInt8], checksum: UInt64, clipDuration: Duration?) -> [UInt8] {
        var bytes = magic
        appendLittleEndian(version, to: &bytes)
        appendLittleEndian(UInt32(bitmap.width), to: &bytes)
        appendLittleEndian(UInt32(bitmap.height), to: &bytes)
        appendLittleEndian(UInt32(key.count), to: &bytes)
        appendLittleEndian(checksum, to: &bytes)
        appendLittleEndian(UInt64(bitPattern: clipDuration.map(nanoseconds) ?? -1), to: &bytes)
        return bytes + key
    }

    /// A duration in whole nanoseconds (clamped to what 64 bits hold).
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let whole = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return whole.overflow ? (seconds < 0 ? .min : .max) : whole.partialValue &+ attoseconds / 1_000_000_000
    }

    /// Parses the fixed header; nil when it is not a version-2 thumbnail with sane dimensions.
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
        let duration = field(28, Int64.self)
        return Header(width: width, height: height, keyLength: keyLength,
                      checksum: field(20, UInt64.self), clipDuration: duration >= 0 ? .nanoseconds(duration) : nil)
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

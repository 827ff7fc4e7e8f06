import Graphics

/// Rows of an image, top to bottom, a band at a time: what the pyramid builder consumes so it
/// never needs the whole image in memory.
public protocol RowSource {
    var width: Int { get }
    var height: Int { get }
    /// Writes the next rows into `band` from its row 0, at most `band.height`; returns how many
    /// (0 at the end).
    mutating func readRows(into band: Bitmap) throws(ImagingError) -> Int
}

/// Rows of a bitmap already in memory (PNG, or a JPEG that needs EXIF rotation).
public struct BitmapRowSource: RowSource {
    public let bitmap: Bitmap
    private var next = 0

    public init(_ bitmap: Bitmap) { self.bitmap = bitmap }

    public var width: Int { bitmap.width }
    public var height: Int { bitmap.height }

    public mutating func readRows(into band: Bitmap) throws(ImagingError) -> Int {
        let count = min(band.height, bitmap.height - next)
        for i in 0..<max(0, count) {
            band.row(i).copyMemory(from: bitmap.row(next + i), byteCount: bitmap.width * 4)
        }
        next += max(0, count)
        return max(0, count)
    }
}

import Graphics

/// The EXIF Orientation tag (0x0112): how the stored pixels must be transformed for display.
///
/// Cameras store the sensor's rows as they come and record the rotation here. Values 5...8
/// swap width and height. Names say what the stored image needs to look right.
public enum ExifOrientation: Int, Hashable, Sendable, CaseIterable {
    /// Stored as displayed.
    case up = 1
    /// Mirror left-right.
    case upMirrored = 2
    /// Rotate 180°.
    case down = 3
    /// Mirror top-bottom.
    case downMirrored = 4
    /// Transpose (mirror across the top-left to bottom-right diagonal).
    case leftMirrored = 5
    /// Rotate 90° clockwise (the usual portrait photo from a phone held upright).
    case right = 6
    /// Transverse (mirror across the other diagonal).
    case rightMirrored = 7
    /// Rotate 90° counter-clockwise.
    case left = 8

    /// Whether display width is the stored height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The displayed size of an image stored at `size`.
    public func orientedSize(_ size: Size) -> Size {
        swapsDimensions ? Size(width: size.height, height: size.width) : size
    }

    /// A new bitmap holding `stored` as it should be displayed; `stored` itself when `.up`.
    public func apply(to stored: Bitmap) -> Bitmap {
        if self == .up { return stored }
        precondition(stored.format.bytesPerPixel == 4, "orientation applies to 32-bit bitmaps")
        let ws = stored.width, hs = stored.height
        let display = Bitmap(width: swapsDimensions ? hs : ws, height: swapsDimensions ? ws : hs,
                             format: stored.format)
        let row = stored.stride / 4
        let last = (hs - 1) * row
        // Display pixel (x, y) reads stored index origin + x·stepX + y·stepY (in pixels).
        let (origin, stepX, stepY): (Int, Int, Int)
        switch self {
        case .up: (origin, stepX, stepY) = (0, 1, row)
        case .upMirrored: (origin, stepX, stepY) = (ws - 1, -1, row)
        case .down: (origin, stepX, stepY) = (last + ws - 1, -1, -row)
        case .downMirrored: (origin, stepX, stepY) = (last, 1, -row)
        case .leftMirrored: (origin, stepX, stepY) = (0, row, 1)
        case .right: (origin, stepX, stepY) = (last, -row, 1)
        case .rightMirrored: (origin, stepX, stepY) = (last + ws - 1, -row, -1)
        case .left: (origin, stepX, stepY) = (ws - 1, row, -1)
        }
        let source = UnsafePointer(stored.pixels.assumingMemoryBound(to: UInt32.self))
        // Tiles keep the column-wise reads of a transpose inside the cache and TLB.
        let tile = 64
        for ty in stride(from: 0, to: display.height, by: tile) {
            for tx in stride(from: 0, to: display.width, by: tile) {
                for y in ty..<min(ty + tile, display.height) {
                    let out = display.row(y).assumingMemoryBound(to: UInt32.self)
                    var index = origin + y * stepY + tx * stepX
                    for x in tx..<min(tx + tile, display.width) {
                        out[x] = source[index]
                        index += stepX
                    }
                }
            }
        }
        return display
    }
}

// A block of pixels in memory. XRGB8888 is the on-screen format (DRM_FORMAT_XRGB8888, pixman
// x8r8g8b8, libjpeg JCS_EXT_BGRX on little-endian), so decoded photos draw with a plain copy.

/// Pixel layouts a `Bitmap` can hold.
public enum PixelFormat: Sendable, Hashable {
    /// 32 bits, B G R X in memory; the X byte is ignored. The screen's format.
    case xrgb8888
    /// 32 bits, B G R A in memory, premultiplied alpha. Overlays and shadows.
    case argb8888
    /// 8 bits of coverage. Glyph masks.
    case a8

    public var bytesPerPixel: Int {
        switch self {
        case .xrgb8888, .argb8888: return 4
        case .a8: return 1
        }
    }
}

/// Owned, stride-aware pixel memory.
///
/// Ownership moves between threads (a decode worker fills a bitmap, then hands it to the event
/// loop), but only one thread writes at a time; after hand-off a bitmap is treated as read-only.
/// That convention is why it is `@unchecked Sendable`.
public final class Bitmap: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next; a multiple of 4 (pixman requires it).
    public let stride: Int
    public let format: PixelFormat
    public let pixels: UnsafeMutableRawPointer
    private let ownsMemory: Bool

    /// Allocates a zero-filled bitmap (black for XRGB, transparent for ARGB).
    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888) {
        precondition(width >= 0 && height >= 0, "negative bitmap size")
        self.width = width
        self.height = height
        self.format = format
        self.stride = (max(width, 1) * format.bytesPerPixel + 3) & ~3
        let bytes = max(stride * max(height, 1), 4)
        self.pixels = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        self.pixels.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        self.ownsMemory = true
    }

    /// Wraps memory someone else owns (a mapped scanout buffer); it must outlive the bitmap.
    public init(wrapping pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                format: PixelFormat = .xrgb8888) {
        precondition(stride % 4 == 0 && stride >= width * format.bytesPerPixel, "bad stride")
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self.pixels = pixels
        self.ownsMemory = false
    }

    deinit {
        if ownsMemory { pixels.deallocate() }
    }

    public var size: Size { Size(width: width, height: height) }
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    /// Bytes of pixel memory this bitmap holds (what a cache budget counts).
    public var byteCount: Int { stride * height }

    /// A pointer to the first byte of row `y`.
    public func row(_ y: Int) -> UnsafeMutableRawPointer {
        pixels + y * stride
    }

    /// The 32-bit pixel at (x, y) of a 32-bit bitmap.
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(format.bytesPerPixel == 4 && x >= 0 && y >= 0 && x < width && y < height)
        return row(y).load(fromByteOffset: x * 4, as: UInt32.self)
    }

    public func setPixel(x: Int, y: Int, _ value: UInt32) {
        precondition(format.bytesPerPixel == 4 && x >= 0 && y >= 0 && x < width && y < height)
        row(y).storeBytes(of: value, toByteOffset: x * 4, as: UInt32.self)
    }

    /// The colour at (x, y) of an XRGB bitmap.
    public func color(x: Int, y: Int) -> Color { Color(xrgb: pixel(x: x, y: y)) }

    /// The coverage byte at (x, y) of an A8 bitmap.
    public func coverage(x: Int, y: Int) -> UInt8 {
        precondition(format == .a8 && x >= 0 && y >= 0 && x < width && y < height)
        return row(y).load(fromByteOffset: x, as: UInt8.self)
    }

    /// A deep copy with its own memory.
    public func copy() -> Bitmap {
        let b = Bitmap(width: width, height: height, format: format)
        let rowBytes = width * format.bytesPerPixel
        for y in 0..<height {
            b.row(y).copyMemory(from: row(y), byteCount: rowBytes)
        }
        return b
    }
}

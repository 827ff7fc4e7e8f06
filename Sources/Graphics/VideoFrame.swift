import CYUV

/// A decoded video frame as the decoder gave it: planar YUV 4:2:0 (I420 or NV12), about
/// 1.5 bytes per pixel, in memory someone else owns (GStreamer's buffer) until the frame goes.
///
/// A canvas draws it by converting YUV to the screen's XRGB8888 straight into the screen's
/// buffer (`Canvas.draw(_:in:)`), with libyuv, loaded on the first frame: no frame-sized BGRx
/// copy is ever made for a clip shown at its own size. Read-only after creation, like a
/// `Bitmap` handed to the loop; `@unchecked Sendable` for the same reason.
public final class VideoFrame: @unchecked Sendable {
    /// How the chroma samples are stored.
    public enum Layout: Sendable, Equatable {
        /// Three planes: Y, then U and V at half width and half height.
        case i420
        /// Two planes: Y, then U and V interleaved at half height.
        case nv12
    }

    /// The YUV-to-RGB matrix and range the stream declares.
    public enum Matrix: Sendable, Equatable {
        case bt601, bt709, bt2020

        fileprivate func code(fullRange: Bool) -> cyuv_matrix {
            switch (self, fullRange) {
            case (.bt601, false): return CYUV_BT601_LIMITED
            case (.bt601, true): return CYUV_BT601_FULL
            case (.bt709, false): return CYUV_BT709_LIMITED
            case (.bt709, true): return CYUV_BT709_FULL
            case (.bt2020, false): return CYUV_BT2020_LIMITED
            case (.bt2020, true): return CYUV_BT2020_FULL
            }
        }
    }

    /// One plane's first byte and the bytes from one row to the next.
    public struct Plane: @unchecked Sendable {
        public let base: UnsafeRawPointer
        public let stride: Int

        public init(base: UnsafeRawPointer, stride: Int) {
            self.base = base
            self.stride = stride
        }
    }

    public let width: Int
    public let height: Int
    public let layout: Layout
    public let matrix: Matrix
    /// Full range (0-255) rather than the limited 16-235 video range.
    public let isFullRange: Bool
    /// Y, then U and V (I420) or the interleaved UV plane (NV12). Read by the canvas alone: the
    /// views that hold a frame see no pointer.
    let planes: [Plane]
    private let release: (@Sendable () -> Void)?
    /// The frame as XRGB, made the first time it is drawn scaled or translucent (the drawing
    /// thread alone touches it).
    private var scaledDrawingBitmap: Bitmap?

    /// Wraps planes someone else filled; `release` gives them back when the frame goes. The
    /// planes must hold `width` x `height` samples of luma and half that (rounded up) of chroma.
    public init(width: Int, height: Int, layout: Layout, planes: [Plane], matrix: Matrix, fullRange: Bool,
                release: (@Sendable () -> Void)?) {
        precondition(width > 0 && height > 0, "an empty video frame")
        precondition(planes.count == (layout == .i420 ? 3 : 2), "wrong plane count for \(layout)")
        self.width = width
        self.height = height
        self.layout = layout
        self.planes = planes
        self.matrix = matrix
        self.isFullRange = fullRange
        self.release = release
    }

    deinit { release?() }

    public var size: Size { Size(width: width, height: height) }

    /// Loads the converter (libyuv) once per process: nil when it is ready, else why not. A frame
    /// may be drawn only after this has returned nil.
    public static func loadConverter() -> String? {
        var error = [CChar](repeating: 0, count: 256)
        guard !cyuv_load(&error, error.count) else { return nil }
        return String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The whole frame as a new XRGB8888 bitmap: for drawing it scaled or translucent, and for
    /// tests. A frame shown at its own size is drawn without one (`Canvas.draw(_:in:)`).
    public func makeBitmap() -> Bitmap {
        let bitmap = Bitmap(width: width, height: height)
        convert(PixelRect(x: 0, y: 0, width: width, height: height), into: bitmap.pixels, stride: bitmap.stride)
        return bitmap
    }

    /// The bitmap a scaled or translucent draw uses: made once per frame, however many parts of
    /// the screen draw it.
    func bitmapForScaledDrawing() -> Bitmap {
        if let scaledDrawingBitmap { return scaledDrawingBitmap }
        let bitmap = makeBitmap()
        scaledDrawingBitmap = bitmap
        return bitmap
    }

    /// Converts `area` of the frame (inside its bounds) to XRGB8888 rows starting at
    /// `destination`. 4:2:0 shares one chroma sample between two columns and two rows, and the
    /// converter pairs them from its first pixel, so an area starting on an odd column or row is
    /// converted in up to four parts, each starting where a chroma sample does. Public for a
    /// display's video plane, which converts into its own scanout buffer.
    public func convert(_ area: PixelRect, into destination: UnsafeMutableRawPointer, stride destinationStride: Int) {
        guard !area.isEmpty else { return }
        guard area.y % 2 == 1 else {
            convertColumns(area, into: destination, stride: destinationStride)
            return
        }
        convertColumns(PixelRect(x: area.x, y: area.y, width: area.width, height: 1), into: destination,
                       stride: destinationStride)
        convert(PixelRect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1),
                into: destination + destinationStride, stride: destinationStride)
    }

    /// `convert` for rows that start with their own chroma row: an odd first column on its own.
    private func convertColumns(_ area: PixelRect, into destination: UnsafeMutableRawPointer, stride destinationStride: Int) {
        guard area.x % 2 == 1 else {
            convertPaired(area, into: destination, stride: destinationStride)
            return
        }
        convertPaired(PixelRect(x: area.x, y: area.y, width: 1, height: area.height), into: destination,
                      stride: destinationStride)
        guard area.width > 1 else { return }
        convertPaired(PixelRect(x: area.x + 1, y: area.y, width: area.width - 1, height: area.height),
                      into: destination + 4, stride: destinationStride)
    }

    /// One converter call: an area starting on an even column (or one column wide), on an even
    /// row (or one row high).
    private func convertPaired(_ area: PixelRect, into destination: UnsafeMutableRawPointer, stride destinationStride: Int) {
        let code = matrix.code(fullRange: isFullRange)
        let luma = planes[0].base + area.y * planes[0].stride + area.x
        let out = destination.assumingMemoryBound(to: UInt8.self)
        let chromaRow = area.y / 2, chromaColumn = area.x / 2
        switch layout {
        case .i420:
            let u = planes[1].base + chromaRow * planes[1].stride + chromaColumn
            let v = planes[2].base + chromaRow * planes[2].stride + chromaColumn
            _ = cyuv_i420_to_xrgb(luma.assumingMemoryBound(to: UInt8.self), Int32(planes[0].stride),
                                  u.assumingMemoryBound(to: UInt8.self), Int32(planes[1].stride),
                                  v.assumingMemoryBound(to: UInt8.self), Int32(planes[2].stride),
                                  out, Int32(destinationStride), code, Int32(area.width), Int32(area.height))
        case .nv12:
            let uv = planes[1].base + chromaRow * planes[1].stride + chromaColumn * 2
            _ = cyuv_nv12_to_xrgb(luma.assumingMemoryBound(to: UInt8.self), Int32(planes[0].stride),
                                  uv.assumingMemoryBound(to: UInt8.self), Int32(planes[1].stride),
                                  out, Int32(destinationStride), code, Int32(area.width), Int32(area.height))
        }
    }
}

import CPixman
import Graphics

/// Pixel layouts a scanout buffer (DRM dumb buffer or fbdev memory) can have.
public enum ScanoutFormat: Sendable, Equatable {
    case xrgb8888
    case xbgr8888
    case rgb565
    case bgr565

    var bytesPerPixel: Int {
        switch self {
        case .xrgb8888, .xbgr8888: return 4
        case .rgb565, .bgr565: return 2
        }
    }

    var pixman: pixman_format_code_t {
        switch self {
        case .xrgb8888: return PIXMAN_x8r8g8b8
        case .xbgr8888: return PIXMAN_x8b8g8r8
        case .rgb565: return PIXMAN_r5g6b5
        case .bgr565: return PIXMAN_b5g6r5
        }
    }
}

/// Copies damaged rectangles of the logical frame buffer into device-oriented scanout memory,
/// rotating and converting the pixel format on the way (pixman: SIMD, with fast paths for 90°
/// steps and for x8r8g8b8 → r5g6b5).
final class ScanoutCopier {
    let rotation: Rotation
    private let source: OpaquePointer
    private let destination: OpaquePointer
    private let logicalWidth: Int
    private let logicalHeight: Int

    /// `memory` is the scanout buffer: `deviceWidth`×`deviceHeight` pixels of `format`, `stride`
    /// bytes per row; it must outlive the copier. `frameBuffer` is logical.
    init(frameBuffer: Bitmap, memory: UnsafeMutableRawPointer, deviceWidth: Int, deviceHeight: Int,
         stride: Int, format: ScanoutFormat, rotation: Rotation) {
        precondition(frameBuffer.format == .xrgb8888)
        self.rotation = rotation
        logicalWidth = frameBuffer.width
        logicalHeight = frameBuffer.height
        source = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(frameBuffer.width), Int32(frameBuffer.height),
                                          frameBuffer.pixels.assumingMemoryBound(to: UInt32.self),
                                          Int32(frameBuffer.stride))
        destination = pixman_image_create_bits(format.pixman, Int32(deviceWidth), Int32(deviceHeight),
                                               memory.assumingMemoryBound(to: UInt32.self), Int32(stride))
        if rotation != .none {
            let m = rotation.deviceToLogicalMatrix(logicalWidth: Double(logicalWidth),
                                                   logicalHeight: Double(logicalHeight))
            var transform = pixman_transform_t()
            pixman_transform_init_identity(&transform)
            let f = cpixman_double_to_fixed
            transform.matrix.0 = (f(m[0]), f(m[1]), f(m[2]))
            transform.matrix.1 = (f(m[3]), f(m[4]), f(m[5]))
            pixman_image_set_transform(source, &transform)
            pixman_image_set_filter(source, PIXMAN_FILTER_NEAREST, nil, 0)
        }
    }

    deinit {
        pixman_image_unref(source)
        pixman_image_unref(destination)
    }

    /// Copies `rects` (logical) and returns where they landed on the device.
    @discardableResult
    func copy(_ rects: [PixelRect]) -> [PixelRect] {
        let bounds = PixelRect(x: 0, y: 0, width: logicalWidth, height: logicalHeight)
        var landed: [PixelRect] = []
        for rect in rects {
            let r = rect.intersection(bounds)
            guard !r.isEmpty else { continue }
            let d = rotation.deviceRect(r, logicalWidth: logicalWidth, logicalHeight: logicalHeight)
            // With a transform pixman samples source = transform(src_x + i + ½, …), so the source
            // origin is given in device space, the same as the destination.
            let (sx, sy) = rotation == .none ? (r.x, r.y) : (d.x, d.y)
            pixman_image_composite32(PIXMAN_OP_SRC, source, nil, destination, Int32(sx), Int32(sy), 0, 0,
                                     Int32(d.x), Int32(d.y), Int32(d.width), Int32(d.height))
            landed.append(d)
        }
        return landed
    }
}

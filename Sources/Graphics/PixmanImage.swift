import CPixman

// The one place Graphics talks to pixman about images: a pixman_image_t viewing a Bitmap's memory.

extension PixelFormat {
    /// The corresponding pixman format code.
    var pixmanFormat: pixman_format_code_t {
        switch self {
        case .xrgb8888: return PIXMAN_x8r8g8b8
        case .argb8888: return PIXMAN_a8r8g8b8
        case .a8: return PIXMAN_a8
        }
    }
}

extension Bitmap {
    /// Creates a pixman image over this bitmap's memory; the caller must `pixman_image_unref` it.
    /// Cheap (a small allocation), so draws make one per call instead of sharing mutable state
    /// such as transforms between threads.
    func makePixmanImage() -> OpaquePointer {
        let bits = pixels.assumingMemoryBound(to: UInt32.self)
        guard let image = pixman_image_create_bits(format.pixmanFormat, Int32(width), Int32(height),
                                                   bits, Int32(stride)) else {
            fatalError("pixman_image_create_bits failed for \(width)x\(height) (out of memory)")
        }
        return image
    }
}

extension Color {
    /// pixman wants 16-bit premultiplied channels.
    var pixmanColor: pixman_color_t {
        let a = UInt32(alpha)
        func premultiplied(_ c: UInt8) -> UInt16 {
            let v = UInt32(c) * a / 255
            return UInt16(v * 257)
        }
        return pixman_color_t(red: premultiplied(red), green: premultiplied(green),
                              blue: premultiplied(blue), alpha: UInt16(a * 257))
    }
}

import Graphics

/// Interleaved R G B A rows (what libheif hands out) to the XRGB8888 of every decoded photo.
///
/// Transparency is composited over black, like `PNGDecoder`: the colour part of premultiplied
/// ARGB, what drawing the image over the viewer's black background shows.
enum RGBAConversion {
    /// Converts `height` rows of `width` pixels. `destination` may be `source` (each pixel is
    /// read before it is written), so a decoder's own buffer can be converted in place.
    static func convert(from source: UnsafeRawPointer, sourceStride: Int, to destination: UnsafeMutableRawPointer,
                        destinationStride: Int, width: Int, height: Int, hasAlpha: Bool) {
        for y in 0..<height {
            let input = source + y * sourceStride, output = destination + y * destinationStride
            for x in 0..<width {
                // Little-endian: R G B A bytes read as A<<24 | B<<16 | G<<8 | R.
                let v = input.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                var r = v & 0xFF, g = (v >> 8) & 0xFF, b = (v >> 16) & 0xFF
                if hasAlpha {
                    let a = v >> 24
                    if a != 255 {
                        r = (r * a + 127) / 255
                        g = (g * a + 127) / 255
                        b = (b * a + 127) / 255
                    }
                }
                output.storeBytes(of: 0xFF00_0000 | r << 16 | g << 8 | b, toByteOffset: x * 4, as: UInt32.self)
            }
        }
    }
}

import Graphics
@testable import Imaging

/// Test inputs generated on the fly, and pixel comparisons.
enum Fixtures {
    /// A smooth pattern whose every mirror or rotation looks different: red grows to the right,
    /// green grows downwards, blue is constant.
    static func gradient(width: Int, height: Int) -> Bitmap {
        let b = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let r = width > 1 ? x * 255 / (width - 1) : 0
                let g = height > 1 ? y * 255 / (height - 1) : 0
                b.setPixel(x: x, y: y, Color(red: UInt8(r), green: UInt8(g), blue: 128).pixel)
            }
        }
        return b
    }

    /// A photo-like pattern with edges and texture (for scaling comparisons).
    static func scene(width: Int, height: Int) -> Bitmap {
        let b = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let inDisc = (x - width / 3) * (x - width / 3) + (y - height / 2) * (y - height / 2) < (height / 4) * (height / 4)
                let stripe = (x / 16 + y / 16) % 2 == 0
                let r = inDisc ? 220 : (x * 200 / max(1, width - 1))
                let g = stripe ? 160 : 60
                let bl = (y * 255 / max(1, height - 1) + (inDisc ? 0 : 40)) % 256
                b.setPixel(x: x, y: y, Color(red: UInt8(r), green: UInt8(g), blue: UInt8(bl)).pixel)
            }
        }
        return b
    }

    /// A bitmap filled with one colour.
    static func solid(width: Int, height: Int, _ color: Color) -> Bitmap {
        let b = Bitmap(width: width, height: height)
        for y in 0..<height { for x in 0..<width { b.setPixel(x: x, y: y, color.pixel) } }
        return b
    }

    /// Where the stored pixel (sx, sy) appears on screen, straight from the EXIF 2.3 table
    /// ("the 0th row is the visual ..., the 0th column is the visual ..."); W, H display size.
    static func displayPosition(of orientation: Int, sx: Int, sy: Int, width w: Int, height h: Int) -> (x: Int, y: Int) {
        switch orientation {
        case 1: return (sx, sy)                  // row 0 top, column 0 left
        case 2: return (w - 1 - sx, sy)          // row 0 top, column 0 right
        case 3: return (w - 1 - sx, h - 1 - sy)  // row 0 bottom, column 0 right
        case 4: return (sx, h - 1 - sy)          // row 0 bottom, column 0 left
        case 5: return (sy, sx)                  // row 0 left, column 0 top
        case 6: return (w - 1 - sy, sx)          // row 0 right, column 0 top
        case 7: return (w - 1 - sy, h - 1 - sx)  // row 0 right, column 0 bottom
        default: return (sy, h - 1 - sx)         // 8: row 0 left, column 0 bottom
        }
    }

    /// The bitmap a camera would store so that `display` shows after applying `orientation`.
    static func stored(for display: Bitmap, orientation: Int) -> Bitmap {
        let swaps = orientation >= 5
        let s = Bitmap(width: swaps ? display.height : display.width, height: swaps ? display.width : display.height)
        for sy in 0..<s.height {
            for sx in 0..<s.width {
                let p = displayPosition(of: orientation, sx: sx, sy: sy, width: display.width, height: display.height)
                s.setPixel(x: sx, y: sy, display.pixel(x: p.x, y: p.y))
            }
        }
        return s
    }

    static func jpeg(_ bitmap: Bitmap, _ options: JPEGEncoder.Options = .init(quality: 95)) throws -> [UInt8] {
        try JPEGEncoder.encode(bitmap, options: options)
    }

    /// Offset of the first SOFn marker's payload (after FF Cn and the 2 length bytes).
    static func sofPayloadOffset(_ jpeg: [UInt8]) -> Int? {
        var i = 2
        while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else { return nil }
            let marker = jpeg[i + 1]
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC { return i + 4 }
            i += 2 + length
        }
        return nil
    }

    /// Offset of the first byte of entropy-coded data (after the SOS segment).
    static func scanDataOffset(_ jpeg: [UInt8]) -> Int? {
        var i = 2
        while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else { return nil }
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if jpeg[i + 1] == 0xDA { return i + 2 + length }
            i += 2 + length
        }
        return nil
    }
}

/// Per-channel differences between two XRGB bitmaps of the same size.
struct PixelDifference {
    var mean: Double
    var max: Int

    init(_ a: Bitmap, _ b: Bitmap) {
        precondition(a.width == b.width && a.height == b.height, "sizes differ: \(a.size) vs \(b.size)")
        var total = 0, worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.color(x: x, y: y), q = b.color(x: x, y: y)
                for d in [abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue))] {
                    total += d
                    worst = Swift.max(worst, d)
                }
            }
        }
        mean = Double(total) / Double(Swift.max(1, a.width * a.height * 3))
        max = worst
    }
}

/// The error a throwing call produced, or nil when it succeeded.
func imagingError<T>(_ body: () throws(ImagingError) -> T) -> ImagingError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

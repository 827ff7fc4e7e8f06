/// A minimal PNG writer independent of libpng (stored deflate blocks, hand-made CRCs), so the
/// decoder is tested against files it did not write: every colour type, bit depths 1...16,
/// palettes, tRNS and Adam7 interlacing.
struct PNGFixture {
    enum ColorType: UInt8 {
        case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6
        var channels: Int {
            switch self {
            case .gray, .palette: return 1
            case .grayAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }
    }

    var width: Int
    var height: Int
    var colorType: ColorType
    var bitDepth: Int = 8
    /// Samples per pixel in row-major order, each 0 ..< 2^bitDepth.
    var samples: [Int]
    var palette: [(UInt8, UInt8, UInt8)] = []
    var transparency: [UInt8]? = nil
    var interlaced = false

    func encode() -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr = PNGFixture.be32(width) + PNGFixture.be32(height)
        ihdr += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        out += PNGFixture.chunk("IHDR", ihdr)
        if colorType == .palette { out += PNGFixture.chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }) }
        if let transparency { out += PNGFixture.chunk("tRNS", transparency) }
        out += PNGFixture.chunk("IDAT", PNGFixture.zlibStored(rawScanlines()))
        out += PNGFixture.chunk("IEND", [])
        return out
    }

    /// Filter byte 0 + packed samples per row, per Adam7 pass when interlaced.
    func rawScanlines() -> [UInt8] {
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var out: [UInt8] = []
        for pass in passes {
            let xs = Array(stride(from: pass.x0, to: width, by: pass.dx))
            let ys = Array(stride(from: pass.y0, to: height, by: pass.dy))
            if xs.isEmpty || ys.isEmpty { continue }
            for y in ys {
                out.append(0)
                var bits = BitPacker()
                for x in xs {
                    for c in 0..<colorType.channels {
                        let v = samples[(y * width + x) * colorType.channels + c]
                        if bitDepth == 16 {
                            bits.append(v >> 8, bits: 8)
                            bits.append(v & 0xFF, bits: 8)
                        } else {
                            bits.append(v, bits: bitDepth)
                        }
                    }
                }
                out += bits.finish()
            }
        }
        return out
    }

    struct BitPacker {
        var bytes: [UInt8] = []
        var current = 0
        var used = 0
        mutating func append(_ value: Int, bits: Int) {
            for i in stride(from: bits - 1, through: 0, by: -1) {
                current = current << 1 | (value >> i & 1)
                used += 1
                if used == 8 { bytes.append(UInt8(current)); current = 0; used = 0 }
            }
        }
        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(current << (8 - used))); current = 0; used = 0 }
            return bytes
        }
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + be32(Int(b << 16 | a))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}

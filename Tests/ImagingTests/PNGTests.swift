import Foundation
import Graphics
import Testing
@testable import Imaging

@Suite("PNG decoding and encoding")
struct PNGTests {
    /// An RGB fixture with distinct values per pixel.
    static func rgbSamples(width: Int, height: Int) -> [Int] {
        var samples: [Int] = []
        for i in 0..<(width * height) {
            let r: Int = (i * 7) % 256, g: Int = (i * 13 + 50) % 256, b: Int = (i * 29 + 100) % 256
            samples += [r, g, b]
        }
        return samples
    }

    static func expectPixels(_ bitmap: Bitmap, width: Int, _ expected: (Int, Int) -> Color) {
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.color(x: x, y: y) != expected(x, y) {
                Issue.record("pixel \(x),\(y) is \(bitmap.color(x: x, y: y)), expected \(expected(x, y))")
                return
            }
        }
    }

    @Test("encoder round trip is exact", arguments: [1, 2, 3, 13, 257])
    func roundTrip(width: Int) throws {
        let source = Fixtures.scene(width: width, height: 9)
        let png = try PNGEncoder.encode(source)
        #expect(ImageFormat.sniff(png) == .png)
        let info = try ImageDecoder.probe(bytes: png)
        #expect(info.format == .png && info.pixelWidth == width && info.pixelHeight == 9)
        #expect(info.colorSpace == .rgb && !info.hasAlpha && !info.isProgressive)
        let decoded = try ImageDecoder.decode(bytes: png)
        #expect(!decoded.isPartial)
        #expect(PixelDifference(decoded.bitmap, source).max == 0)
    }

    @Test func encoderIgnoresStridePaddingAndAlpha() throws {
        var memory = [UInt32](repeating: 0xDEAD_BEEF, count: 8 * 3)
        let expected = Fixtures.gradient(width: 5, height: 3)
        let png = try memory.withUnsafeMutableBytes { raw in
            let wrapped = Bitmap(wrapping: raw.baseAddress!, width: 5, height: 3, stride: 32, format: .argb8888)
            for y in 0..<3 { for x in 0..<5 { wrapped.setPixel(x: x, y: y, expected.pixel(x: x, y: y) & 0x00FF_FFFF) } }
            return try PNGEncoder.encode(wrapped)
        }
        let decoded = try ImageDecoder.decode(bytes: png)
        #expect(PixelDifference(decoded.bitmap, expected).max == 0)
    }

    @Test func rgbAndInterlacedDecodeTheSame() throws {
        let samples = Self.rgbSamples(width: 19, height: 11)
        let plain = PNGFixture(width: 19, height: 11, colorType: .rgb, samples: samples).encode()
        let interlaced = PNGFixture(width: 19, height: 11, colorType: .rgb, samples: samples, interlaced: true).encode()
        #expect(try ImageDecoder.probe(bytes: interlaced).isProgressive)
        let a = try ImageDecoder.decode(bytes: plain), b = try ImageDecoder.decode(bytes: interlaced)
        Self.expectPixels(a.bitmap, width: 19) { x, y in
            let i = (y * 19 + x) * 3
            return Color(red: UInt8(samples[i]), green: UInt8(samples[i + 1]), blue: UInt8(samples[i + 2]))
        }
        #expect(PixelDifference(a.bitmap, b.bitmap).max == 0)
    }

    @Test("gray at every bit depth", arguments: [1, 2, 4, 8, 16])
    func gray(bitDepth: Int) throws {
        let maxValue = (1 << bitDepth) - 1
        let samples = (0..<(9 * 4)).map { ($0 * 37) % (maxValue + 1) }
        let png = PNGFixture(width: 9, height: 4, colorType: .gray, bitDepth: bitDepth, samples: samples).encode()
        let info = try ImageDecoder.probe(bytes: png)
        #expect(info.colorSpace == .grayscale && info.bitsPerComponent == bitDepth)
        let decoded = try ImageDecoder.decode(bytes: png)
        Self.expectPixels(decoded.bitmap, width: 9) { x, y in
            let v = samples[y * 9 + x]
            // Low depths scale up by bit replication; 16 bits scale down with rounding.
            let g = UInt8((v * 255 * 2 + maxValue) / (2 * maxValue))
            return Color(red: g, green: g, blue: g)
        }
    }

    @Test func rgb16Bit() throws {
        let samples8 = Self.rgbSamples(width: 7, height: 3)
        let png = PNGFixture(width: 7, height: 3, colorType: .rgb, bitDepth: 16, samples: samples8.map { $0 * 257 }).encode()
        let decoded = try ImageDecoder.decode(bytes: png)
        Self.expectPixels(decoded.bitmap, width: 7) { x, y in
            let i = (y * 7 + x) * 3
            return Color(red: UInt8(samples8[i]), green: UInt8(samples8[i + 1]), blue: UInt8(samples8[i + 2]))
        }
    }

    @Test("palette with transparency", arguments: [8, 4, 2])
    func palette(bitDepth: Int) throws {
        let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (200, 100, 50)]
        let samples = (0..<(11 * 5)).map { $0 % 4 }
        let png = PNGFixture(width: 11, height: 5, colorType: .palette, bitDepth: bitDepth, samples: samples,
                             palette: palette, transparency: [255, 255, 255, 128]).encode()
        let info = try ImageDecoder.probe(bytes: png)
        #expect(info.colorSpace == .indexed && info.hasAlpha)
        let decoded = try ImageDecoder.decode(bytes: png)
        Self.expectPixels(decoded.bitmap, width: 11) { x, y in
            let (r, g, b) = palette[samples[y * 11 + x]]
            let a = samples[y * 11 + x] == 3 ? 128 : 255
            func over(_ c: UInt8) -> UInt8 { UInt8((Int(c) * a + 127) / 255) }
            return Color(red: over(r), green: over(g), blue: over(b))
        }
    }

    @Test func alphaIsCompositedOverBlack() throws {
        // RGBA and gray+alpha, 8 and 16 bits.
        let rgba = PNGFixture(width: 4, height: 1, colorType: .rgba,
                              samples: [255, 255, 255, 255, 255, 255, 255, 128, 200, 100, 0, 0, 10, 20, 30, 64]).encode()
        let a = try ImageDecoder.decode(bytes: rgba).bitmap
        #expect(a.color(x: 0, y: 0) == .white)
        #expect(a.color(x: 1, y: 0) == Color(red: 128, green: 128, blue: 128))
        #expect(a.color(x: 2, y: 0) == .black)
        #expect(a.color(x: 3, y: 0) == Color(red: 3, green: 5, blue: 8))
        let grayAlpha = PNGFixture(width: 2, height: 1, colorType: .grayAlpha, bitDepth: 16,
                                   samples: [65535, 32896, 0, 65535]).encode()
        let g = try ImageDecoder.decode(bytes: grayAlpha).bitmap
        #expect(g.color(x: 0, y: 0) == Color(red: 128, green: 128, blue: 128))
        #expect(g.color(x: 1, y: 0) == .black)
        #expect(try ImageDecoder.probe(bytes: grayAlpha).hasAlpha)
    }

    @Test func fittingScalesPNGsToo() throws {
        let png = try PNGEncoder.encode(Fixtures.scene(width: 200, height: 100))
        let decoded = try ImageDecoder.decode(bytes: png, fitting: Size(width: 50, height: 50))
        #expect(decoded.bitmap.size == Size(width: 50, height: 25))
        #expect(decoded.originalSize == Size(width: 200, height: 100))
    }

    @Test func badCRCIsAClearError() throws {
        let png = PNGFixture(width: 8, height: 8, colorType: .rgb, samples: Self.rgbSamples(width: 8, height: 8)).encode()
        // IHDR data byte (CRC then fails), and the last byte of the IDAT CRC.
        var badHeader = png
        badHeader[20] ^= 0x01
        var badData = png
        badData[png.count - 13] ^= 0xFF
        for bytes in [badHeader, badData] {
            let error = try #require(imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: bytes) })
            #expect(error.kind == .corrupt)
            #expect(error.description.contains("CRC"), "\(error)")
        }
    }

    @Test func truncatedPNGIsPartialOrAnError() throws {
        let png = PNGFixture(width: 64, height: 64, colorType: .rgb, samples: Self.rgbSamples(width: 64, height: 64)).encode()
        let half = Array(png.prefix(png.count / 2))
        let decoded = try ImageDecoder.decode(bytes: half)
        #expect(decoded.isPartial)
        #expect(decoded.warning?.contains("rows") == true)
        #expect(decoded.bitmap.color(x: 5, y: 63) == .black)
        let full = try ImageDecoder.decode(bytes: png)
        #expect(decoded.bitmap.color(x: 5, y: 2) == full.bitmap.color(x: 5, y: 2))
        let strict = imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: half, options: DecodeOptions(strict: true)) }
        #expect(strict?.kind == .truncated)
        // Cut inside the header: no rows at all.
        let header = Array(png.prefix(30))
        #expect(imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: header) }?.kind == .truncated)
        // Only IEND missing: the picture is complete.
        let noEnd = Array(png.dropLast(12))
        let complete = try ImageDecoder.decode(bytes: noEnd, options: DecodeOptions(strict: true))
        #expect(!complete.isPartial)
    }

    @Test func hugeDeclaredPNGIsRefusedFromTheHeader() throws {
        let fixture = PNGFixture(width: 65000, height: 65000, colorType: .rgb, samples: [])
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += PNGFixture.chunk("IHDR", PNGFixture.be32(fixture.width) + PNGFixture.be32(fixture.height) + [8, 2, 0, 0, 0])
        bytes += PNGFixture.chunk("IDAT", PNGFixture.zlibStored([0, 0, 0, 0]))
        let error = try #require(imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: bytes) })
        #expect(error.kind == .tooLarge)
        #expect(error.description.contains("PNG is 65000x65000"), "\(error)")
    }

    @Test func writeToFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("screenshot.png").path
        let source = Fixtures.gradient(width: 31, height: 17)
        try PNGEncoder.write(source, to: path)
        let decoded = try ImageDecoder.decode(path: path)
        #expect(PixelDifference(decoded.bitmap, source).max == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["screenshot.png"])
        let error = imagingError { () throws(ImagingError) in try PNGEncoder.write(source, to: folder.path + "/missing/x.png") }
        #expect(error?.kind == .io)
        #expect(error?.fileName == "x.png")
    }
}

import Graphics
import Testing
import TestSupport
@testable import Imaging

@Suite("JPEG decoding")
struct JPEGDecodeTests {
    @Test func baselineProbeReadsTheHeaderOnly() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.gradient(width: 33, height: 17))
        let info = try ImageDecoder.probe(bytes: jpeg)
        #expect(info.format == .jpeg)
        #expect(info.pixelWidth == 33 && info.pixelHeight == 17)
        #expect(info.colorSpace == .rgb)
        #expect(!info.isProgressive && !info.isArithmeticCoded)
        #expect(info.bitsPerComponent == 8)
        #expect(info.exif == nil)
    }

    @Test func grayscale() throws {
        let source = Fixtures.gradient(width: 48, height: 32)
        let jpeg = try Fixtures.jpeg(source, .init(quality: 95, grayscale: true))
        let info = try ImageDecoder.probe(bytes: jpeg)
        #expect(info.colorSpace == .grayscale)
        let decoded = try ImageDecoder.decode(bytes: jpeg)
        for (x, y) in [(0, 0), (47, 0), (0, 31), (47, 31), (20, 15)] {
            let c = decoded.bitmap.color(x: x, y: y)
            let s = source.color(x: x, y: y)
            let luma = (299 * Int(s.red) + 587 * Int(s.green) + 114 * Int(s.blue)) / 1000
            #expect(c.red == c.green && c.green == c.blue)
            #expect(abs(Int(c.red) - luma) <= 6, "at \(x),\(y): \(c.red) vs \(luma)")
        }
    }

    /// Left half red, right half blue, as Adobe-style inverted CMYK (255 − ink).
    static func cmykSamples(width: Int, height: Int) -> [UInt8] {
        var samples: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                // red = no cyan, full magenta and yellow; blue = full cyan and magenta, no yellow
                samples += x < width / 2 ? [255, 0, 0, 255] : [0, 0, 255, 255]
            }
        }
        return samples
    }

    @Test("CMYK and YCCK (Adobe inverted) decode to RGB", arguments: [false, true])
    func cmyk(ycck: Bool) throws {
        let jpeg = try CMYKJPEG.encode(Self.cmykSamples(width: 32, height: 16), width: 32, height: 16, ycck: ycck,
                                         quality: 95)
        let info = try ImageDecoder.probe(bytes: jpeg)
        #expect(info.colorSpace == (ycck ? .ycck : .cmyk))
        let decoded = try ImageDecoder.decode(bytes: jpeg)
        let left = decoded.bitmap.color(x: 4, y: 8), right = decoded.bitmap.color(x: 28, y: 8)
        #expect(left.red > 240 && left.green < 15 && left.blue < 15, "left \(left)")
        #expect(right.red < 15 && right.green < 15 && right.blue > 240, "right \(right)")
        // Scaled decodes take the same path.
        let small = try ImageDecoder.decode(bytes: jpeg, fitting: Size(width: 8, height: 8))
        #expect(small.bitmap.size == Size(width: 8, height: 4))
        #expect(small.bitmap.color(x: 0, y: 2).red > 230)
    }

    @Test func cmykWithoutAdobeMarkerIsPlainInk() {
        let bitmap = Bitmap(width: 2, height: 1)
        // C M Y K bytes as libjpeg hands them out: no ink, and full cyan.
        bitmap.row(0).storeBytes(of: 0, as: UInt32.self)
        bitmap.row(0).storeBytes(of: UInt32(0x0000_00FF), toByteOffset: 4, as: UInt32.self)
        CMYKConversion.convertInPlace(bitmap, inverted: false)
        #expect(bitmap.color(x: 0, y: 0) == .white)
        #expect(bitmap.color(x: 1, y: 0) == Color(red: 0, green: 255, blue: 255))
    }

    @Test func progressiveMatchesBaseline() throws {
        let source = Fixtures.scene(width: 120, height: 80)
        let progressive = try Fixtures.jpeg(source, .init(quality: 90, progressive: true))
        let baseline = try Fixtures.jpeg(source, .init(quality: 90))
        #expect(try ImageDecoder.probe(bytes: progressive).isProgressive)
        let a = try ImageDecoder.decode(bytes: progressive), b = try ImageDecoder.decode(bytes: baseline)
        #expect(!a.isPartial)
        #expect(PixelDifference(a.bitmap, b.bitmap).mean < 1)
        let scaled = try ImageDecoder.decode(bytes: progressive, fitting: Size(width: 30, height: 30))
        #expect(scaled.bitmap.size == Size(width: 30, height: 20))
    }

    @Test func restartMarkers() throws {
        let source = Fixtures.scene(width: 128, height: 64)
        let jpeg = try Fixtures.jpeg(source, .init(quality: 90, restartInterval: 2))
        let scan = try #require(Fixtures.scanDataOffset(jpeg))
        let restarts = (scan..<(jpeg.count - 1)).filter { jpeg[$0] == 0xFF && (0xD0...0xD7).contains(jpeg[$0 + 1]) }
        #expect(restarts.count > 10)
        let decoded = try ImageDecoder.decode(bytes: jpeg)
        #expect(!decoded.isPartial)
        // Restart markers change only the entropy-coded stream: pixels are identical.
        let plain = try ImageDecoder.decode(bytes: Fixtures.jpeg(source, .init(quality: 90)))
        #expect(PixelDifference(decoded.bitmap, plain.bitmap).max == 0)

        // Damage inside one restart interval stays local: the decoder resynchronises at the next marker.
        var damaged = jpeg
        let middle = restarts[restarts.count / 2]
        for i in (middle - 12)..<(middle - 2) where damaged[i] != 0xFF && damaged[i - 1] != 0xFF { damaged[i] ^= 0x5A }
        let repaired = try ImageDecoder.decode(bytes: damaged)
        let bottom = PixelRect(x: 0, y: 56, width: 128, height: 8)
        var diff = 0
        for y in bottom.y..<bottom.maxY {
            for x in 0..<128 { diff += abs(Int(repaired.bitmap.color(x: x, y: y).green) - Int(decoded.bitmap.color(x: x, y: y).green)) }
        }
        #expect(Double(diff) / Double(bottom.area) < 4, "last rows after the damaged interval")
    }

    @Test func arithmeticCoding() throws {
        let source = Fixtures.scene(width: 64, height: 48)
        let jpeg = try Fixtures.jpeg(source, .init(quality: 90, arithmeticCoding: true))
        let info = try ImageDecoder.probe(bytes: jpeg)
        #expect(info.isArithmeticCoded)
        let decoded = try ImageDecoder.decode(bytes: jpeg)
        // Entropy coding is lossless: the same pixels as the Huffman-coded file.
        let huffman = try ImageDecoder.decode(bytes: Fixtures.jpeg(source, .init(quality: 90)))
        #expect(PixelDifference(decoded.bitmap, huffman.bitmap).max == 0)
    }

    @Test func twelveBitIsAClearError() throws {
        var jpeg = try Fixtures.jpeg(Fixtures.gradient(width: 16, height: 16))
        let sof = try #require(Fixtures.sofPayloadOffset(jpeg))
        jpeg[sof] = 12  // sample precision
        let patched = jpeg
        let probeError = try #require(imagingError { () throws(ImagingError) in try ImageDecoder.probe(bytes: patched) })
        let decodeError = try #require(imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: patched) })
        for error in [probeError, decodeError] {
            #expect(error.kind == .unsupported)
            #expect(error.description.contains("12"), "\(error)")
        }
    }

    @Test func losslessIsAClearError() throws {
        var jpeg = try Fixtures.jpeg(Fixtures.gradient(width: 16, height: 16))
        let sof = try #require(Fixtures.sofPayloadOffset(jpeg))
        jpeg[sof - 3] = 0xC3
        let patched = jpeg
        let error = try #require(imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: patched) })
        #expect(error.kind == .unsupported, "\(error)")
    }

    @Test func hugeDeclaredSizeIsRefusedFromTheHeader() throws {
        var jpeg = try Fixtures.jpeg(Fixtures.gradient(width: 16, height: 16))
        let sof = try #require(Fixtures.sofPayloadOffset(jpeg))
        // precision, height (2 bytes), width (2 bytes)
        jpeg.replaceSubrange((sof + 1)...(sof + 4), with: [0xFD, 0xE8, 0xFD, 0xE8])  // 65000 x 65000
        let huge = jpeg
        let info = try ImageDecoder.probe(bytes: jpeg)
        #expect(info.pixelWidth == 65000 && info.pixelHeight == 65000)
        let error = try #require(imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: huge) })
        #expect(error.kind == .tooLarge)
        #expect(error.description.contains("65000x65000"))
        #expect(error.description.contains("100.0 megapixels"), "\(error)")
        let scaled = imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: huge, fitting: Size(width: 100, height: 100)) }
        #expect(scaled?.kind == .tooLarge)
    }

    @Test func pixelLimitIsConfigurable() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.gradient(width: 40, height: 30))
        let error = imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: jpeg, options: DecodeOptions(maxPixels: 1199)) }
        #expect(error?.kind == .tooLarge)
        #expect(error?.description.contains("40x30") == true)
        #expect(try ImageDecoder.decode(bytes: jpeg, options: DecodeOptions(maxPixels: 1200)).bitmap.width == 40)
    }
}

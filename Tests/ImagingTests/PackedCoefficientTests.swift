import Graphics
import TestSupport
import Testing
@testable import Imaging

/// Progressive JPEGs decoded above 1/8 scale keep their coefficients packed between scans
/// (DecodeOptions.packsProgressiveCoefficients, cjpeg_compact.c): the same pixels as libjpeg's
/// own whole-image buffers, in a fraction of the memory.
@Suite("Packed progressive coefficients")
struct PackedCoefficientTests {
    static func progressive(fullChroma: Bool, quality: Int = 90) throws -> [UInt8] {
        try Fixtures.jpeg(Fixtures.scene(width: 640, height: 480), .init(quality: quality, progressive: true, fullChroma: fullChroma))
    }

    static let unpacked = DecodeOptions(packsProgressiveCoefficients: false)

    @Test("the same pixels as libjpeg's whole-image buffers",
          arguments: [(true, nil), (false, nil), (true, Size(width: 320, height: 240)), (false, Size(width: 160, height: 120)),
                      (true, Size(width: 300, height: 225))] as [(Bool, Size?)])
    func identicalPixels(fullChroma: Bool, box: Size?) throws {
        let jpeg = try Self.progressive(fullChroma: fullChroma)
        let packed = try ImageDecoder.decode(bytes: jpeg, fitting: box)
        let whole = try ImageDecoder.decode(bytes: jpeg, fitting: box, options: Self.unpacked)
        #expect(packed.dctScale == whole.dctScale && packed.dctScale.eighths > 1)
        #expect(packed.bitmap.size == whole.bitmap.size)
        #expect(PixelDifference(packed.bitmap, whole.bitmap).max == 0)
        // Packed holds less than libjpeg's 128 bytes per block.
        #expect(packed.coefficientBytes > 0 && packed.coefficientBytes < whole.coefficientBytes / 2,
                "packed \(packed.coefficientBytes) B, whole \(whole.coefficientBytes) B")
    }

    /// q100: large coefficients (the long value codes) and dense blocks.
    @Test(arguments: [Size(width: 320, height: 240), Size(width: 640, height: 480)])
    func qualityHundredToo(box: Size) throws {
        let jpeg = try Self.progressive(fullChroma: false, quality: 100)
        let packed = try ImageDecoder.decode(bytes: jpeg, fitting: box)
        let whole = try ImageDecoder.decode(bytes: jpeg, fitting: box, options: Self.unpacked)
        #expect(PixelDifference(packed.bitmap, whole.bitmap).max == 0)
        #expect(packed.coefficientBytes < whole.coefficientBytes / 2)
    }

    @Test func bandedReaderGivesTheSameRows() throws {
        let jpeg = try Self.progressive(fullChroma: false)
        let scratch = ScratchDirectory()
        let reader = try JPEGBandReader(path: RawPath(scratch.file("progressive.jpg", bytes: jpeg).description))
        let band = Bitmap(width: reader.width, height: reader.height)
        var rows = 0
        while rows < reader.height {
            let view = Bitmap(width: reader.width, height: reader.height - rows)
            let n = try reader.readRows(into: view)
            if n == 0 { break }
            Canvas(target: band).draw(view, from: Rect(x: 0, y: 0, width: reader.width, height: n),
                                      in: Rect(x: 0, y: rows, width: reader.width, height: n))
            rows += n
        }
        let whole = try ImageDecoder.decode(bytes: jpeg, options: Self.unpacked)
        #expect(rows == reader.height)
        #expect(PixelDifference(band, whole.bitmap).max == 0)
    }

    @Test func truncatedFileGivesTheSamePartialImage() throws {
        let jpeg = try Self.progressive(fullChroma: true)
        let cut = Array(jpeg[..<(jpeg.count * 2 / 3)])
        let packed = try ImageDecoder.decode(bytes: cut, fitting: Size(width: 320, height: 240))
        let whole = try ImageDecoder.decode(bytes: cut, fitting: Size(width: 320, height: 240), options: Self.unpacked)
        #expect(packed.isPartial && whole.isPartial)
        // libjpeg smooths the blocks whose AC scans are missing; the packed path does not (see
        // start_full in cjpeg_shim.c): close, not equal.
        let difference = PixelDifference(packed.bitmap, whole.bitmap)
        #expect(difference.mean < 3, "mean difference \(difference.mean)")
        #expect(difference.max < 32, "max difference \(difference.max)")
    }

    @Test func baselineFilesAreNotPacked() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.scene(width: 640, height: 480), .init(quality: 90))
        let decoded = try ImageDecoder.decode(bytes: jpeg, fitting: Size(width: 320, height: 240))
        #expect(decoded.coefficientBytes == 0)
    }
}

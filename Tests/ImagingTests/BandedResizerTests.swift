import Basics
import Graphics
import Testing
@testable import Imaging

@Suite("Resizing while rows arrive (no full-size bitmap)")
struct BandedResizerTests {
    /// Rows of a bitmap, at most `chunk` per call: like libjpeg, which hands out a few at a time.
    struct ChunkedRows: RowSource {
        let bitmap: Bitmap
        let chunk: Int
        var next = 0
        var calls = 0
        var width: Int { bitmap.width }
        var height: Int { bitmap.height }
        mutating func readRows(into band: Bitmap) throws(ImagingError) -> Int {
            calls += 1
            let count = min(band.height, chunk, bitmap.height - next)
            for i in 0..<count { band.row(i).copyMemory(from: bitmap.row(next + i), byteCount: bitmap.width * 4) }
            next += count
            return count
        }
    }

    /// Pixels that change every row and column, so a band off by one row shows.
    static func noise(width: Int, height: Int, seed: UInt32) -> Bitmap {
        let bitmap = Bitmap(width: width, height: height)
        var random = SeededRandom(seed: UInt64(seed))
        for y in 0..<height {
            for x in 0..<width {
                bitmap.setPixel(x: x, y: y, 0xFF00_0000 | (UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF))
            }
        }
        return bitmap
    }

    @Test("same bytes as the one-pass resampler", arguments: [
        (640, 480, 480, 270), (2820, 1586, 1920, 1080), (300, 200, 150, 100), (301, 199, 151, 100),
        (97, 600, 60, 301), (64, 64, 64, 33), (128, 40, 127, 40), (50, 7, 26, 4), (33, 1000, 17, 999),
    ])
    func sameAsResampler(width: Int, height: Int, targetWidth: Int, targetHeight: Int) throws {
        #expect(BandedResizer.isSinglePass(from: (width, height), to: (targetWidth, targetHeight)))
        let source = Self.noise(width: width, height: height, seed: UInt32(width * 7919 + height))
        let reference = Resampler.resize(source, width: targetWidth, height: targetHeight)
        for chunk in [16, 3, 1000] {
            var rows = ChunkedRows(bitmap: source, chunk: chunk)
            let banded = try BandedResizer.resize(&rows, width: targetWidth, height: targetHeight)
            #expect(rows.next == height, "every row read")
            #expect(banded.size == reference.size)
            let diff = PixelDifference(banded, reference)
            #expect(diff.max == 0, "chunk \(chunk): max difference \(diff.max)")
        }
    }

    @Test func rowsCoverWhatBilinearReads() {
        // Destination row y samples source row centre (y + 0.5)·s − 0.5 and the row below.
        let range = BandedResizer.rows(for: 10..<20, scaleY: 1.5, sourceHeight: 1000)
        #expect(range.lowerBound <= 15 - 1 && range.upperBound >= 29 + 2)
        #expect(BandedResizer.rows(for: 0..<4, scaleY: 2, sourceHeight: 8) == 0..<8)
        #expect(BandedResizer.rows(for: 0..<1, scaleY: 1.25, sourceHeight: 5).lowerBound == 0)
    }

    @Test func onlyOnePassShrinksAreBanded() {
        #expect(BandedResizer.isSinglePass(from: (2560, 1440), to: (1920, 1080)))
        #expect(BandedResizer.isSinglePass(from: (3840, 2160), to: (1920, 1080)))
        #expect(!BandedResizer.isSinglePass(from: (3841, 2160), to: (1920, 1080)))
        #expect(!BandedResizer.isSinglePass(from: (100, 100), to: (0, 50)))
    }

    @Test("a screen-size JPEG decode equals a full decode and one resize", arguments: [(1200, 900, 500, 500), (900, 1200, 400, 400)])
    func jpegScreenDecodeMatchesReference(width: Int, height: Int, boxWidth: Int, boxHeight: Int) throws {
        let jpeg = try Fixtures.jpeg(Fixtures.scene(width: width, height: height), .init(quality: 90))
        let box = Size(width: boxWidth, height: boxHeight)
        let decoded = try ImageDecoder.decode(bytes: jpeg, fitting: box)
        // The same DCT scale, decoded whole, then the resampler.
        let scaledWhole = try ImageDecoder.decode(bytes: jpeg, fitting: Size(width: width / 2, height: height / 2))
        #expect(scaledWhole.bitmap.size == Size(width: width / 2, height: height / 2))
        let expected = ImageDecoder.fittedSize(of: Size(width: width, height: height), in: box)
        let reference = Resampler.resize(scaledWhole.bitmap, width: expected.width, height: expected.height)
        #expect(decoded.dctScale == scaledWhole.dctScale)
        #expect(PixelDifference(decoded.bitmap, reference).max == 0)
    }
}

import Graphics
import Testing
@testable import Imaging

/// Progressive JPEGs decoded at 1/8 scale come from their DC scans alone (DecodeOptions
/// .progressiveDCOnly): one coefficient per block is kept instead of libjpeg's whole-image
/// buffers of 64, and the rest of the file is never read.
@Suite("Progressive DC-only decoding")
struct ProgressiveDCOnlyTests {
    static let width = 640, height = 480
    /// 1/8 of the photo exactly: libjpeg's 1x1 IDCT.
    static let eighth = Size(width: 80, height: 60)

    static func progressive(fullChroma: Bool) throws -> [UInt8] {
        try Fixtures.jpeg(Fixtures.scene(width: width, height: height),
                          .init(quality: 90, progressive: true, fullChroma: fullChroma))
    }

    /// The file cut right after the second scan's SOS marker: everything up to the end of the
    /// first (DC) scan of libjpeg's simple progression is there, nothing after.
    static func cutAfterFirstScan(_ jpeg: [UInt8]) throws -> [UInt8] {
        var sosSeen = 0
        for i in 0..<(jpeg.count - 1) where jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA {
            sosSeen += 1
            if sosSeen == 2 { return Array(jpeg[..<(i + 2)]) }
        }
        throw ImagingError(.corrupt, "fewer than two scans")
    }

    @Test("a 1/8 decode from the DC scans looks like the full progressive decode", arguments: [true, false])
    func matchesFullDecode(fullChroma: Bool) throws {
        let jpeg = try Self.progressive(fullChroma: fullChroma)
        let dcOnly = try ImageDecoder.decode(bytes: jpeg, fitting: Self.eighth)
        let full = try ImageDecoder.decode(bytes: jpeg, fitting: Self.eighth, options: .init(progressiveDCOnly: false))
        #expect(dcOnly.dctScale == full.dctScale && dcOnly.dctScale.eighths == 1)
        #expect(dcOnly.bitmap.size == full.bitmap.size)
        #expect(!dcOnly.isPartial)
        let difference = PixelDifference(dcOnly.bitmap, full.bitmap)
        // Luma is the same 1x1 IDCT input except the DC's last refinement bit. Subsampled
        // chroma (a 2x2 IDCT at this scale) loses its AC detail: colour edges soften by a
        // pixel, so only its mean is bounded.
        #expect(difference.mean < (fullChroma ? 2 : 4), "mean difference \(difference.mean)")
        if fullChroma { #expect(difference.max < 12, "max difference \(difference.max)") }
    }

    /// 1/8 exactly (decoded whole), and a little smaller (scanlines go through the banded resize).
    @Test(arguments: [eighth, Size(width: 70, height: 52)])
    func stopsReadingAfterTheDCScan(box: Size) throws {
        let jpeg = try Self.progressive(fullChroma: true)
        let cut = try Self.cutAfterFirstScan(jpeg)
        #expect(cut.count < jpeg.count / 2)
        // Nothing past the DC scan is read: the cut file gives the same complete image, even
        // in strict mode, which fails on any warning.
        let whole = try ImageDecoder.decode(bytes: jpeg, fitting: box)
        let fromCut = try ImageDecoder.decode(bytes: cut, fitting: box, options: .init(strict: true))
        #expect(fromCut.dctScale.eighths == 1)
        #expect(!fromCut.isPartial)
        #expect(PixelDifference(whole.bitmap, fromCut.bitmap).max == 0)
        // The whole-coefficient path reads on and finds the file cut.
        let full = try? ImageDecoder.decode(bytes: cut, fitting: box, options: .init(progressiveDCOnly: false))
        #expect(full == nil || full!.isPartial)
    }

    @Test func largerScalesStillReadEveryScan() throws {
        let cut = try Self.cutAfterFirstScan(try Self.progressive(fullChroma: true))
        // 1/4 scale needs AC coefficients: the cut file is reported as cut.
        let quarter = try? ImageDecoder.decode(bytes: cut, fitting: Size(width: 160, height: 120))
        #expect(quarter?.dctScale.eighths ?? 2 == 2)
        #expect(quarter == nil || quarter!.isPartial)
    }

    @Test func baselineFilesAreUnaffected() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.scene(width: Self.width, height: Self.height), .init(quality: 90))
        let a = try ImageDecoder.decode(bytes: jpeg, fitting: Self.eighth)
        let b = try ImageDecoder.decode(bytes: jpeg, fitting: Self.eighth, options: .init(progressiveDCOnly: false))
        #expect(PixelDifference(a.bitmap, b.bitmap).max == 0)
    }

    @Test func truncatedInsideTheDCScanIsPartial() throws {
        let jpeg = try Self.progressive(fullChroma: true)
        let cut = try Self.cutAfterFirstScan(jpeg)
        let sos = try #require(Fixtures.scanDataOffset(jpeg))
        let inside = Array(cut[..<(sos + (cut.count - sos) / 2)])
        let decoded = try ImageDecoder.decode(bytes: inside, fitting: Self.eighth)
        #expect(decoded.isPartial)
        #expect(decoded.bitmap.size == Self.eighth)
    }
}

import Graphics
import Testing
import TestSupport
@testable import Imaging

/// Issue 17, item 3: damaged HEIF, AVIF and WebP files give a clear error (or, for WebP cut in
/// its data, the rows it has), never a crash or a hang. The app side (broken tile, one log
/// line) is in RobustnessTests' hostile library.
@Suite("HEIF, AVIF and WebP bad input")
struct ModernFormatBadInputTests {
    let scratch = ScratchDirectory()
    var dir: String { scratch.path.description }

    func encoded(_ kind: EncodedFixture.Kind, width: Int = 96, height: Int = 64) throws -> [UInt8] {
        try FileReader.read(path: EncodedFixture.write(Fixtures.scene(width: width, height: height), as: kind, to: dir, name: "source"))
    }

    func decode(_ bytes: [UInt8], strict: Bool = false, maxPixels: Int = 100_000_000) -> Result<DecodedImage, ImagingError> {
        Result { () throws(ImagingError) in
            try ImageDecoder.decode(bytes: bytes, fitting: Size(width: 48, height: 48),
                                    options: DecodeOptions(maxPixels: maxPixels, strict: strict))
        }
    }

    @Test(arguments: [EncodedFixture.Kind.heic, .avif, .webp, .webpLossless])
    func everyTruncationIsAnErrorOrAPartialImage(kind: EncodedFixture.Kind) throws {
        let whole = try encoded(kind)
        var errors = 0, partial = 0
        for cut in stride(from: 0, to: whole.count, by: max(1, whole.count / 80)) {
            let bytes = Array(whole[..<cut])
            switch decode(bytes) {
            case .success(let image):
                // Only WebP keeps rows it has; a HEIF is whole or refused.
                #expect(kind == .webp || kind == .webpLossless, "cut at \(cut) of \(whole.count) decoded")
                #expect(image.isPartial && image.warning?.contains("ends early") == true)
                partial += 1
            case .failure(let error):
                #expect([.notAnImage, .truncated, .corrupt, .unsupported].contains(error.kind), "\(cut): \(error)")
                #expect(!error.message.isEmpty && !error.message.contains("\n"), "one log line: \(error)")
                errors += 1
            }
            if case .success(let image) = decode(bytes, strict: true) {
                Issue.record("strict decode of a cut at \(cut) returned an image (partial \(image.isPartial))")
            }
        }
        #expect(errors > 10)
    }

    @Test func aTruncatedWebPKeepsItsTopRows() throws {
        let whole = try encoded(.webpLossless, width: 256, height: 256)
        let image = try ImageDecoder.decode(bytes: Array(whole[..<(whole.count * 3 / 4)]))
        #expect(image.isPartial)
        let full = try ImageDecoder.decode(bytes: whole).bitmap
        let top = Bitmap(width: 256, height: 32), expected = Bitmap(width: 256, height: 32)
        for y in 0..<32 {
            top.row(y).copyMemory(from: image.bitmap.row(y), byteCount: 256 * 4)
            expected.row(y).copyMemory(from: full.row(y), byteCount: 256 * 4)
        }
        #expect(PixelDifference(top, expected).max == 0)
        // Below the break: black, as for PNG.
        #expect(image.bitmap.color(x: 128, y: 255) == Color(red: 0, green: 0, blue: 0))
    }

    @Test func aHEICDeclaringMoreThanTheLimitIsRefusedFromItsHeader() throws {
        let heic = try encoded(.heic)
        let ispe = try #require(EncodedFixture.range(of: "ispe", in: heic))
        func declaring(_ side: Int) -> [UInt8] {
            var bytes = heic
            bytes.replaceSubrange((ispe.upperBound + 4)..<(ispe.upperBound + 12), with: PNGFixture.be32(side) + PNGFixture.be32(side))
            return bytes
        }
        // 30000 x 30000: the probe reads the declared size; the decode refuses it before decoding.
        #expect(try ImageDecoder.probe(bytes: declaring(30_000)).pixelSize == Size(width: 30_000, height: 30_000))
        guard case .failure(let error) = decode(declaring(30_000)) else { Issue.record("decoded a 30000x30000 HEIC"); return }
        #expect(error.kind == .tooLarge)
        #expect(error.message.contains("30000x30000"), "\(error)")
        // Past libheif's own limit of 32768 a side, libheif refuses it while reading the boxes.
        let beyond = imagingError { () throws(ImagingError) in try ImageDecoder.probe(bytes: declaring(60_000)) }
        #expect(beyond?.kind == .tooLarge)
        #expect(beyond?.message.contains("60000x60000") == true, "\(String(describing: beyond))")
    }

    @Test func aHEIFWithoutAPrimaryImageIsCorrupt() throws {
        var bytes = try encoded(.heic)
        let pitm = try #require(EncodedFixture.range(of: "pitm", in: bytes))
        bytes.replaceSubrange((pitm.upperBound + 4)..<(pitm.upperBound + 6), with: [0x77, 0x77])
        guard case .failure(let error) = decode(bytes) else { Issue.record("decoded a HEIF without primary image"); return }
        #expect(error.kind == .corrupt, "\(error)")
        #expect(error.message.contains("HEIF"), "\(error)")
    }

    @Test func aWebPWithALyingRIFFSize() throws {
        let webp = try encoded(.webp)
        // Longer than the file: the image chunk is complete, so the picture still shows.
        var long = webp
        long.replaceSubrange(4..<8, with: [0, 0, 0, 0x40])
        let shown = try decode(long).get()
        #expect(shown.bitmap.size == Size(width: 48, height: 32))
        // Shorter than the image chunk: refused with a message.
        var short = webp
        short.replaceSubrange(4..<8, with: [16, 0, 0, 0])
        guard case .failure(let error) = decode(short) else { Issue.record("decoded a WebP whose RIFF ends inside its header"); return }
        #expect([.corrupt, .truncated].contains(error.kind), "\(error)")
        #expect(error.message.contains("WebP"), "\(error)")
    }

    @Test func aWebPDeclaringMoreThanTheLimitIsRefusedFromItsHeader() throws {
        var bytes = try encoded(.webp)
        let chunk = try #require(EncodedFixture.range(of: "VP8 ", in: bytes))
        bytes.replaceSubrange((chunk.upperBound + 10)..<(chunk.upperBound + 14), with: [0xFF, 0x3F, 0xFF, 0x3F])
        guard case .failure(let error) = decode(bytes, maxPixels: 16383 * 16383 - 1) else { Issue.record("decoded"); return }
        #expect(error.kind == .tooLarge)
        #expect(error.message.contains("16383x16383"), "\(error)")
    }

    @Test(arguments: ["heic", "avif", "webp"])
    func emptyFilesAndOtherBytesAreNotImages(ext: String) {
        guard case .failure(let empty) = decode([]) else { Issue.record("decoded nothing"); return }
        #expect(empty.kind == .notAnImage)
        // "ftyp" with neither an image nor a video brand (a Canon raw's; mp42 is a clip now), RIFF without WEBP.
        let fake = ext == "webp" ? Array("RIFF\u{10}\0\0\0AVI LIST".utf8) : [0, 0, 0, 16] + Array("ftypcrx \0\0\0\0".utf8)
        guard case .failure(let other) = decode(fake + [UInt8](repeating: 0, count: 64)) else { Issue.record("decoded"); return }
        #expect(other.kind == .notAnImage, "\(other)")
    }
}

import Basics
import Graphics
import TestSupport
import Testing
@testable import Imaging

/// Seeded random damage to real files: decoding must return an image or an error, never crash.
@Suite("Random mutations")
struct MutationTests {
    static func mutate(_ original: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var bytes = original
        switch Int.random(in: 0..<4, using: &random) {
        case 0:  // a few random bytes (keep the signature so the real decoder runs)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                bytes[Int.random(in: 8..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        case 1:  // bit flips
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: 8..<bytes.count, using: &random)] ^= 1 << UInt8.random(in: 0...7, using: &random)
            }
        case 2:  // truncation
            bytes = Array(bytes.prefix(Int.random(in: 8...bytes.count, using: &random)))
        default:  // a run of 0xFF (marker-like) or zeros
            let start = Int.random(in: 8..<bytes.count, using: &random)
            let end = min(bytes.count, start + Int.random(in: 1...16, using: &random))
            let fill: UInt8 = Bool.random(using: &random) ? 0xFF : 0
            for i in start..<end { bytes[i] = fill }
        }
        return bytes
    }

    static func exercise(_ original: [UInt8], seed: UInt64, count: Int) -> (decoded: Int, failed: Int) {
        var random = SeededRandom(seed: seed)
        var decoded = 0, failed = 0
        var options = DecodeOptions()
        options.maxPixels = 4_000_000  // mutated sizes must not allocate gigabytes
        for i in 0..<count {
            let bytes = mutate(original, &random)
            let box: Size? = i % 2 == 0 ? nil : Size(width: 20, height: 20)
            do {
                let image = try ImageDecoder.decode(bytes: bytes, fitting: box, options: options)
                #expect(image.bitmap.width > 0 && image.bitmap.height > 0)
                decoded += 1
            } catch {
                #expect(!error.description.isEmpty)
                failed += 1
            }
            _ = try? ImageDecoder.probe(bytes: bytes)
        }
        return (decoded, failed)
    }

    @Test func jpegMutations() throws {
        let baseline = try Fixtures.jpeg(Fixtures.scene(width: 48, height: 32),
                                         .init(quality: 80, markers: [.exif(tiff: TIFFBuilder(orientation: 6, dateTimeOriginal: "2020:01:01 00:00:00").build())]))
        let progressive = try Fixtures.jpeg(Fixtures.scene(width: 48, height: 32), .init(quality: 80, progressive: true, restartInterval: 1))
        let a = Self.exercise(baseline, seed: 1, count: 200)
        let b = Self.exercise(progressive, seed: 2, count: 200)
        #expect(a.decoded > 0 && a.failed > 0)
        #expect(b.decoded > 0 && b.failed > 0)
    }

    @Test func pngMutations() throws {
        let png = try PNGEncoder.encode(Fixtures.scene(width: 40, height: 24))
        let samples: [Int] = (0..<(17 * 9)).map { $0 % 16 }
        var palette: [(UInt8, UInt8, UInt8)] = []
        for i in 0..<16 { palette.append((UInt8(i * 16), UInt8(255 - i * 16), 7)) }
        let interlaced = PNGFixture(width: 17, height: 9, colorType: .palette, bitDepth: 4,
                                    samples: samples, palette: palette,
                                    transparency: [0, 128], interlaced: true).encode()
        let a = Self.exercise(png, seed: 3, count: 200)
        let b = Self.exercise(interlaced, seed: 4, count: 200)
        #expect(a.decoded > 0 && a.failed > 0)
        #expect(b.failed > 0)
    }
}

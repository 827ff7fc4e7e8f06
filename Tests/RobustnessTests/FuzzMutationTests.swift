import Basics
import Glibc
import Graphics
import Imaging
import TestSupport
import Testing

/// The in-`swift test` part of fuzzing (issue 11, item 2): a few seconds of seeded random
/// mutations of every hostile file through the loader's decoder (files on disk, thumbnail and
/// screen sizes) and of EXIF structures through the parser. libFuzzer runs longer in `make fuzz`.
@Suite struct FuzzMutationTests {
    static func mutate(_ original: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var bytes = original
        guard !bytes.isEmpty else { return [UInt8.random(in: 0...255, using: &random)] }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            case 1: bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= 1 << UInt8.random(in: 0...7, using: &random)
            case 2: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            case 3:  // a big-endian length or offset field set to an extreme
                let at = Int.random(in: 0..<max(1, bytes.count - 4), using: &random)
                let value: [UInt8] = [[0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0x7F, 0xFF, 0xFF, 0xF0], [0, 0, 0, 8]][Int.random(in: 0..<4, using: &random)]
                for i in 0..<min(4, bytes.count - at) { bytes[at + i] = value[i] }
            case 4:  // duplicate a slice (repeated segments, markers, IFDs)
                let a = Int.random(in: 0..<bytes.count, using: &random)
                let b = min(bytes.count, a + Int.random(in: 1...64, using: &random))
                bytes.insert(contentsOf: bytes[a..<b], at: Int.random(in: 0...bytes.count, using: &random))
            default:
                if bytes.count > 1 { bytes.remove(at: Int.random(in: 0..<bytes.count, using: &random)) }
            }
            if bytes.isEmpty { break }
        }
        return bytes
    }

    @Test func mutatedHostileFilesThroughTheLoadersDecoder() throws {
        let folder = makeTemporaryDirectory("mutate")
        defer { removeTree(folder) }
        let originals = try HostileFiles.make().filter { !$0.bytes.isEmpty && $0.bytes.count < 200_000 }
        var random = SeededRandom(seed: 0x11)
        var options = DecodeOptions()
        options.maxPixels = 4_000_000
        options.maxScans = 200
        let decoder = PhotoFileDecoder(options: options)
        var decoded = 0, failed = 0
        for i in 0..<1200 {
            let original = originals[i % originals.count]
            let bytes = Self.mutate(original.bytes, &random)
            let path = RawPath(folder + "/m\(i % 8).jpg")
            try writeRaw(bytes, to: path)
            let size: SizeClass = [.thumbnail(edge: 96), .screen(width: 160, height: 120), .full][i % 3]
            do {
                let bitmap = try decoder.decode(ImageRequest(key: ImageKey(path: path, size: size))).bitmap
                #expect(bitmap.width > 0 && bitmap.height > 0 && bitmap.width * bitmap.height <= 4_000_000)
                decoded += 1
            } catch let error as ImagingError {
                #expect(!error.description.isEmpty)
                failed += 1
            }
        }
        // Both outcomes happen: mutations that still decode and ones that are refused.
        #expect(decoded > 50 && failed > 50, "decoded \(decoded), failed \(failed)")
    }

    @Test func mutatedExifNeverTrapsOrLoops() {
        var random = SeededRandom(seed: 0xE1F)
        let seeds = [HostileFiles.exifLoop, HostileFiles.exifOutside, HostileFiles.exifThumbnailOutside,
                     Array("II".utf8) + [42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]]
        var parsed = 0
        for i in 0..<20_000 {
            let bytes = Self.mutate(seeds[i % seeds.count], &random)
            if let exif = ExifData.parse(bytes) {
                parsed += 1
                #expect((exif.thumbnail?.count ?? 0) <= bytes.count)
            }
        }
        #expect(parsed > 0)
    }

    /// Writes the seed corpus of fuzz/ (run with FUZZ_SEEDS=fuzz/seeds; skipped otherwise).
    @Test(.enabled(if: getenv("FUZZ_SEEDS") != nil)) func writeFuzzSeeds() throws {
        let root = String(cString: getenv("FUZZ_SEEDS"))
        mkdir(root, 0o755); mkdir(root + "/decode", 0o755); mkdir(root + "/exif", 0o755)
        for file in try HostileFiles.make() where file.bytes.count < 100_000 {
            try writeRaw(file.bytes, to: RawPath(root + "/decode").appending(file.name.map { $0 < 0x80 ? $0 : 0x5F }))
        }
        for (i, tiff) in [HostileFiles.exifLoop, HostileFiles.exifOutside, HostileFiles.exifThumbnailOutside].enumerated() {
            try writeRaw(tiff, to: RawPath(root + "/exif/seed-\(i).tiff"))
        }
    }
}

import Basics
import Graphics
import Imaging
import TestSupport
import Testing

/// Issue 17, item 3: HEIF, AVIF and WebP photos made by the real encoders (heif-enc, cwebp,
/// img2webp), then damaged the ways the JPEG set is: truncated, corrupt, empty, a declared size
/// over the limit, no primary image, a RIFF size that lies.
extension HostileFiles {
    static func formatFiles() throws -> [(name: [UInt8], bytes: [UInt8], expect: Expectation)] {
        let dir = makeTemporaryDirectory("hostile-formats")
        defer { removeTree(dir) }
        var files: [(name: [UInt8], bytes: [UInt8], expect: Expectation)] = []
        func add(_ name: String, _ bytes: [UInt8], _ expect: Expectation) { files.append((Array(name.utf8), bytes, expect)) }
        func solid(_ color: Color, width: Int = 128, height: Int = 96) -> Bitmap {
            let bitmap = Bitmap(width: width, height: height)
            Canvas(target: bitmap).clear(color)
            return bitmap
        }
        func encoded(_ color: Color, _ kind: EncodedFixture.Kind, name: String) throws -> [UInt8] {
            try FileReader.read(path: EncodedFixture.write(solid(color), as: kind, to: dir, name: name))
        }

        let heic = try encoded(.red, .heic, name: "heic")
        let avif = try encoded(.green, .avif, name: "avif")
        let webp = try encoded(.blue, .webp, name: "webp")
        add("good.heic", heic, .shows(.red))
        add("good.avif", avif, .shows(.green))
        add("good.webp", webp, .shows(.blue))
        add("good-lossless.webp", try encoded(Color(rgb: 0xFFFF00), .webpLossless, name: "lossless"), .shows(Color(rgb: 0xFFFF00)))
        add("heic-named.jpg", heic, .shows(.red))
        // An animation shows its first frame (magenta, then cyan).
        let first = dir + "/frame-0.png", second = dir + "/frame-1.png", animated = dir + "/animated.webp"
        try PNGEncoder.write(solid(Color(rgb: 0xFF00FF)), to: first)
        try PNGEncoder.write(solid(Color(rgb: 0x00FFFF)), to: second)
        try ExternalTool.run("img2webp", ["-lossless", "-d", "500", first, second, "-o", animated])
        add("animated.webp", try FileReader.read(path: animated), .shows(Color(rgb: 0xFF00FF)))

        add("empty.heic", [], .broken)
        add("empty.webp", [], .broken)
        // Cut in the boxes (nothing to show), and in the coded data.
        for cut in [12, 40, 200] { add("truncated-\(cut).heic", Array(heic[..<cut]), .broken) }
        add("truncated-half.heic", Array(heic[..<(heic.count / 2)]), .showsOrBroken)
        add("truncated-half.avif", Array(avif[..<(avif.count / 2)]), .showsOrBroken)
        for cut in [16, 30] { add("truncated-\(cut).webp", Array(webp[..<cut]), .broken) }
        add("truncated-half.webp", Array(webp[..<(webp.count / 2)]), .showsOrBroken)
        var random = SeededRandom(seed: 0x17)
        for (name, original) in [("corrupt.heic", heic), ("corrupt.avif", avif), ("corrupt.webp", webp)] {
            var corrupt = original
            for _ in 0..<24 { corrupt[Int(random.next() % UInt64(original.count - 64)) + 64] = UInt8(truncatingIfNeeded: random.next()) }
            add(name, corrupt, .showsOrBroken)
        }

        // The primary image declares 60000 x 60000 (3.6 gigapixels) in its ispe property.
        do {
            let ispe = try #require(EncodedFixture.range(of: "ispe", in: heic))
            var huge = heic
            huge.replaceSubrange((ispe.upperBound + 4)..<(ispe.upperBound + 12), with: be32(60_000) + be32(60_000))
            add("huge.heic", huge, .broken)
        }
        // pitm names an item that does not exist: no primary image.
        do {
            let pitm = try #require(EncodedFixture.range(of: "pitm", in: heic))
            var orphan = heic
            orphan.replaceSubrange((pitm.upperBound + 4)..<(pitm.upperBound + 6), with: be16(0x7777))
            add("no-primary.heic", orphan, .broken)
        }
        // A RIFF size far past the end of the file, and one too small for the image chunk.
        var longRIFF = webp
        longRIFF.replaceSubrange(4..<8, with: [0, 0, 0, 0x40])
        add("riff-too-long.webp", longRIFF, .showsOrBroken)
        var shortRIFF = webp
        shortRIFF.replaceSubrange(4..<8, with: [16, 0, 0, 0])
        add("riff-too-short.webp", shortRIFF, .broken)
        // The VP8 frame header (after its 3-byte tag and 9D 01 2A) says 16383 x 16383.
        do {
            let start = try #require(EncodedFixture.range(of: "VP8 ", in: webp))
            var huge = webp
            huge.replaceSubrange((start.upperBound + 10)..<(start.upperBound + 14), with: [0xFF, 0x3F, 0xFF, 0x3F])
            add("huge.webp", huge, .broken)
        }
        return files
    }
}

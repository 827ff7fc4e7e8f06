import Glibc
import Graphics
import Imaging
import Testing
import TestSupport

/// What the app must do with one file of the hostile folder.
enum Expectation: Equatable {
    /// A real photo: shown, in this colour.
    case shows(Color)
    /// Shown as the broken-photo tile with exactly one log line naming it.
    case broken
    /// Not decodable as a whole (truncated in the entropy data...): either a partial picture or
    /// the broken tile, and at most one log line. Never a crash or a hang.
    case showsOrBroken
    /// Not in the library at all (links that loop or leave the folders), one log line.
    case skipped
}

/// Builds every kind of hostile file the issue lists, plus good photos, as (name, bytes, expectation).
enum HostileFiles {
    static let goodColors: [Color] = [.red, .green, .blue, Color(rgb: 0xFFFF00), Color(rgb: 0x00FFFF), Color(rgb: 0xFF00FF)]

    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// One big-endian TIFF IFD entry.
    static func entry(tag: Int, type: Int, count: Int, value: Int) -> [UInt8] {
        be16(tag) + be16(type) + be32(count) + be32(value)
    }

    /// EXIF whose first IFD lies far outside the block.
    static let exifOutside: [UInt8] = Array("MM".utf8) + [0, 42] + be32(0x7FFF_FFF0)
    /// EXIF whose IFD points to itself (sub-IFD and next IFD): a parser that follows it loops.
    static let exifLoop: [UInt8] = Array("MM".utf8) + [0, 42] + be32(8)
        + be16(2) + entry(tag: 0x8769, type: 4, count: 1, value: 8) + entry(tag: 0x0112, type: 3, count: 1, value: 1 << 16)
        + be32(8)
    /// EXIF with a thumbnail whose offset and length leave the block, and a count that overflows.
    static let exifThumbnailOutside: [UInt8] = Array("MM".utf8) + [0, 42] + be32(8)
        + be16(1) + entry(tag: 0x010F, type: 2, count: 0x4000_0000, value: 0x7000_0000)
        + be32(26)
        + be16(2) + entry(tag: 0x0201, type: 4, count: 1, value: 0x7FFF_FF00) + entry(tag: 0x0202, type: 4, count: 1, value: 0x00FF_FFFF)
        + be32(0)

    /// Offset of the first SOFn payload.
    static func sofPayloadOffset(_ jpeg: [UInt8]) -> Int? { segmentOffset(jpeg) { (0xC0...0xCF).contains($0) && $0 != 0xC4 && $0 != 0xC8 && $0 != 0xCC } }
    /// Offset of the first byte of entropy-coded data.
    static func scanDataOffset(_ jpeg: [UInt8]) -> Int? {
        guard let sos = segmentOffset(jpeg, where: { $0 == 0xDA }) else { return nil }
        return sos + (Int(jpeg[sos - 2]) << 8 | Int(jpeg[sos - 1])) - 2
    }

    /// Offset of the payload (after the length bytes) of the first segment whose marker matches.
    static func segmentOffset(_ jpeg: [UInt8], where matches: (UInt8) -> Bool) -> Int? {
        var i = 2
        while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else { return nil }
            if matches(jpeg[i + 1]) { return i + 4 }
            i += 2 + (Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3]))
        }
        return nil
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// All files: good photos, then each hostile kind.
    static func make() throws -> [(name: [UInt8], bytes: [UInt8], expect: Expectation)] {
        var files: [(name: [UInt8], bytes: [UInt8], expect: Expectation)] = []
        func add(_ name: String, _ bytes: [UInt8], _ expect: Expectation) { files.append((Array(name.utf8), bytes, expect)) }

        for (i, color) in goodColors.enumerated() {
            add("good-\(i).jpg", try solidPhoto(color), .shows(color))
        }
        let base = try solidPhoto(.green, width: 256, height: 192)
        let sos = try #require(scanDataOffset(base))
        let sof = try #require(sofPayloadOffset(base))

        add("empty.jpg", [], .broken)
        add("text.jpg", Array("<html>this is not a photo</html>\n".utf8), .broken)
        add("header-only.jpg", Array(base[..<(sos - 40)]), .broken)
        for offset in [1, 2, 3, 11, 100, sof, sof + 3] {
            add("truncated-head-\(offset).jpg", Array(base[..<offset]), .broken)
        }
        for offset in [sos - 1, sos, sos + 1, sos + 17, (sos + base.count) / 2, base.count - 3, base.count - 1] {
            add("truncated-data-\(offset).jpg", Array(base[..<offset]), .showsOrBroken)
        }
        var random = SystemRandomNumberGenerator()
        for variant in 0..<4 {
            var corrupt = base
            for _ in 0..<(8 << variant) { corrupt[Int.random(in: sos..<(base.count - 2), using: &random)] = UInt8.random(in: 0...255, using: &random) }
            add("corrupt-entropy-\(variant).jpg", corrupt, .showsOrBroken)
        }
        var bomb = base
        bomb.replaceSubrange((sof + 1)...(sof + 4), with: [0xFD, 0xE8, 0xFD, 0xE8])  // 65000 x 65000
        add("bomb-65000.jpg", bomb, .broken)
        var twelveBit = base
        twelveBit[sof] = 12
        add("twelve-bit.jpg", twelveBit, .broken)
        var zeroSize = base
        zeroSize.replaceSubrange((sof + 1)...(sof + 4), with: [0, 0, 0, 0])
        add("zero-size.jpg", zeroSize, .broken)

        // CMYK: libjpeg's Adobe CMYK is inverted (255 = no ink); red = magenta + yellow ink.
        let cmyk = [UInt8](repeating: 0, count: 64 * 48 * 4).enumerated().map { i, _ in [255, 0, 0, 255][i % 4] as UInt8 }
        add("cmyk.jpg", try CMYKJPEG.encode(cmyk, width: 64, height: 48), .shows(.red))
        add("ycck.jpg", try CMYKJPEG.encode(cmyk, width: 64, height: 48, ycck: true), .shows(.red))
        add("arithmetic.jpg", try solidPhoto(.blue, options: .init(quality: 90, arithmeticCoding: true)), .shows(.blue))

        // Progressive, then the last scan repeated hundreds of times before EOI.
        let progressive = try solidPhoto(Color(rgb: 0xFFFF00), options: .init(quality: 90, progressive: true))
        var lastScan = progressive.count - 4
        while lastScan > 2 && !(progressive[lastScan] == 0xFF && progressive[lastScan + 1] == 0xDA) { lastScan -= 1 }
        let scan = Array(progressive[lastScan..<(progressive.count - 2)])
        var manyScans = Array(progressive[..<(progressive.count - 2)])
        for _ in 0..<400 { manyScans += scan }
        add("progressive-400-scans.jpg", manyScans + [0xFF, 0xD9], .showsOrBroken)
        var tooManyScans = Array(progressive[..<(progressive.count - 2)])
        for _ in 0..<1500 { tooManyScans += scan }
        add("progressive-1500-scans.jpg", tooManyScans + [0xFF, 0xD9], .broken)

        // A 1 MB EXIF: sixteen 64 KB APP1 segments (the first a valid TIFF, the rest padding).
        let bigTIFF = Array("MM".utf8) + [0, 42] + be32(8) + be16(0) + be32(0) + [UInt8](repeating: 0xEE, count: 65_000)
        let bigExif = [JPEGEncoder.Marker](repeating: .exif(tiff: bigTIFF), count: 16)
        add("exif-1mb.jpg", try solidPhoto(.red, options: .init(quality: 90, markers: bigExif)), .shows(.red))
        add("exif-outside.jpg", try solidPhoto(.blue, options: .init(quality: 90, markers: [.exif(tiff: exifOutside)])), .shows(.blue))
        add("exif-loop.jpg", try solidPhoto(.green, options: .init(quality: 90, markers: [.exif(tiff: exifLoop)])), .shows(.green))
        add("exif-thumb-outside.jpg", try solidPhoto(.red, options: .init(quality: 90, markers: [.exif(tiff: exifThumbnailOutside)])), .shows(.red))
        // Little-endian twin of the loop, and an EXIF block cut inside its header.
        add("exif-truncated.jpg", try solidPhoto(.blue, options: .init(quality: 90, markers: [.exif(tiff: Array("II*".utf8))])), .shows(.blue))

        // PNG: a good one, a bad CRC, huge declared dimensions (CRC fixed so only the size is wrong).
        let pngBitmap = Bitmap(width: 64, height: 48)
        Canvas(target: pngBitmap).clear(Color(rgb: 0x00FFFF))
        let png = try PNGEncoder.encode(pngBitmap)
        add("good.png", png, .shows(Color(rgb: 0x00FFFF)))
        var badCRC = png
        badCRC[29] ^= 0xFF
        add("bad-crc.png", badCRC, .broken)
        var hugePNG = png
        hugePNG.replaceSubrange(16..<24, with: be32(65_000) + be32(65_000))
        hugePNG.replaceSubrange(29..<33, with: be32(Int(crc32(Array(hugePNG[12..<29])))))
        add("huge.png", hugePNG, .broken)
        add("png-header-only.png", Array(png[..<33]), .broken)
        add("jpeg-named.png", try solidPhoto(.blue), .shows(.blue))

        files += try formatFiles()

        // A file name that is not UTF-8 (Latin-1 "café.jpg").
        files.append((Array("caf".utf8) + [0xE9] + Array(".jpg".utf8), try solidPhoto(.red), .shows(.red)))
        return files
    }
}

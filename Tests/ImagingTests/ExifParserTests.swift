import Basics
import Graphics
import TestSupport
import Testing
@testable import Imaging

@Suite("EXIF parser")
struct ExifParserTests {
    static let thumbnail: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 1, 2, 3, 4, 0xFF, 0xD9]

    @Test("reads orientation, date and thumbnail in both byte orders", arguments: [false, true])
    func valid(bigEndian: Bool) throws {
        let tiff = TIFFBuilder(bigEndian: bigEndian, orientation: 6, dateTimeOriginal: "2023:12:24 18:00:01",
                               thumbnail: Self.thumbnail).build()
        let exif = try #require(ExifData.parse(tiff))
        #expect(exif.orientation == .right)
        #expect(exif.dateTimeOriginal == "2023:12:24 18:00:01")
        #expect(exif.thumbnail == Self.thumbnail)
        // With the APP1 "Exif\0\0" prefix as well.
        #expect(ExifData.parse([0x45, 0x78, 0x69, 0x66, 0, 0] + tiff) == exif)
    }

    @Test func notTIFFIsNil() {
        #expect(ExifData.parse([]) == nil)
        #expect(ExifData.parse([0x49, 0x49, 42]) == nil)
        #expect(ExifData.parse([0x49, 0x4D, 42, 0, 8, 0, 0, 0, 0, 0]) == nil)      // mixed byte order
        #expect(ExifData.parse([0x49, 0x49, 43, 0, 8, 0, 0, 0, 0, 0]) == nil)      // wrong magic
        #expect(ExifData.parse([0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0xFF]) == nil) // IFD0 outside
        #expect(ExifData.parse([0x49, 0x49, 42, 0, 0, 0, 0, 0, 0, 0]) == nil)      // IFD0 inside the header
    }

    /// Little-endian TIFF with `entries` in IFD0 (tag, type, count, value) and `next` IFD offset.
    static func tiff(_ entries: [(Int, Int, Int, Int)], next: Int = 0, tail: [UInt8] = []) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        var out: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0] + u16(entries.count)
        for (tag, type, count, value) in entries { out += u16(tag) + u16(type) + u32(count) + u32(value) }
        return out + u32(next) + tail
    }

    @Test func hugeEntryCountIsRefused() {
        var bytes = Self.tiff([(0x0112, 3, 1, 6)])
        bytes[8] = 0xFF
        bytes[9] = 0xFF  // 65535 entries in a 26-byte buffer
        #expect(ExifData.parse(bytes) == nil)
    }

    @Test func tableRunningOffTheEndKeepsWhatWasRead() throws {
        var bytes = Self.tiff([(0x0112, 3, 1, 8), (0x0112, 3, 1, 3)])
        bytes[8] = 5  // claims 5 entries, has 2
        let exif = try #require(ExifData.parse(bytes))
        #expect(exif.orientation != nil)
    }

    @Test func loopsAreCutOff() throws {
        // Exif IFD pointer back to IFD0, and IFD0's next pointing at itself.
        let exif = try #require(ExifData.parse(Self.tiff([(0x0112, 3, 1, 3), (0x8769, 4, 1, 8)], next: 8)))
        #expect(exif.orientation == .down)
        #expect(exif.dateTimeOriginal == nil && exif.thumbnail == nil)
    }

    @Test func offsetsOutsideTheBufferAreIgnored() throws {
        let exif = try #require(ExifData.parse(Self.tiff([
            (0x0112, 3, 1, 8),
            (0x8769, 4, 1, 0x7FFF_FFF0),        // Exif IFD far away
        ], next: 0xFFFF_FFFF)))                  // IFD1 far away
        #expect(exif.orientation == .left)
        #expect(exif.dateTimeOriginal == nil && exif.thumbnail == nil)

        // DateTimeOriginal whose value lies outside, and one whose count overflows.
        let subIFD = 8 + 2 + 12 + 4
        let dates = Self.tiff([(0x8769, 4, 1, subIFD)], tail:
            [2, 0] + [0x03, 0x90, 2, 0, 20, 0, 0, 0, 0xF0, 0xFF, 0, 0] + [0x03, 0x90, 2, 0, 0xFF, 0xFF, 0xFF, 0xFF, 8, 0, 0, 0] + [0, 0, 0, 0])
        #expect(try #require(ExifData.parse(dates)).dateTimeOriginal == nil)
    }

    @Test func thumbnailMustFitAndLookLikeAJPEG() throws {
        let good = TIFFBuilder(orientation: 1, thumbnail: Self.thumbnail).build()
        #expect(ExifData.parse(good)?.thumbnail == Self.thumbnail)
        // Cut the buffer inside the thumbnail.
        #expect(ExifData.parse(Array(good.dropLast(3)))?.thumbnail == nil)
        #expect(ExifData.parse(Array(good.dropLast(3)))?.orientation == .up)
        // Not starting with SOI.
        var notJPEG = good
        notJPEG[good.count - Self.thumbnail.count] = 0
        #expect(ExifData.parse(notJPEG)?.thumbnail == nil)
    }

    @Test func badValuesAreNil() throws {
        #expect(try #require(ExifData.parse(Self.tiff([(0x0112, 3, 1, 0)]))).orientation == nil)
        #expect(try #require(ExifData.parse(Self.tiff([(0x0112, 3, 1, 9)]))).orientation == nil)
        #expect(try #require(ExifData.parse(Self.tiff([(0x0112, 2, 1, 6)]))).orientation == nil)   // ASCII type
        #expect(try #require(ExifData.parse(Self.tiff([(0x0112, 4, 1, 6)]))).orientation == .right) // LONG is tolerated
        #expect(try #require(ExifData.parse(Self.tiff([(0x0112, 99, 1, 6)]))).orientation == nil)  // unknown type
    }

    @Test func randomMutationsNeverCrash() {
        let valid = TIFFBuilder(orientation: 6, dateTimeOriginal: "2023:12:24 18:00:01", thumbnail: Self.thumbnail).build()
        var random = SeededRandom(seed: 42)
        var parsed = 0
        for _ in 0..<3000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random))) }
            if let exif = ExifData.parse(bytes) {
                parsed += 1
                if let thumb = exif.thumbnail { #expect(thumb.count <= bytes.count && thumb.starts(with: [0xFF, 0xD8])) }
            }
        }
        #expect(parsed > 0)
    }
}

import Graphics
import Testing
import TestSupport
@testable import Imaging

@Suite("EXIF orientation")
struct OrientationTests {
    static let display = Fixtures.gradient(width: 40, height: 24)

    /// A JPEG storing `display` the way a camera would for `orientation`, with the tag set.
    static func orientedJPEG(_ orientation: Int) throws -> [UInt8] {
        let stored = Fixtures.stored(for: display, orientation: orientation)
        let exif = TIFFBuilder(orientation: orientation).build()
        return try JPEGEncoder.encode(stored, options: .init(quality: 100, fullChroma: true, markers: [.exif(tiff: exif)]))
    }

    @Test("every orientation displays the original picture", arguments: 1...8)
    func fullSize(orientation: Int) throws {
        let jpeg = try Self.orientedJPEG(orientation)
        let info = try ImageDecoder.probe(bytes: jpeg)
        #expect(info.orientation.rawValue == orientation)
        #expect(info.orientedSize == Size(width: 40, height: 24))
        #expect(info.pixelWidth == (orientation >= 5 ? 24 : 40))

        let decoded = try ImageDecoder.decode(bytes: jpeg)
        #expect(decoded.bitmap.size == Size(width: 40, height: 24))
        #expect(decoded.originalSize == Size(width: 40, height: 24))
        #expect(!decoded.isPartial)
        let diff = PixelDifference(decoded.bitmap, Self.display)
        #expect(diff.mean < 2, "mean difference \(diff.mean)")
        #expect(diff.max <= 12, "max difference \(diff.max)")
    }

    @Test("orientation also applies to scaled decodes", arguments: 1...8)
    func scaled(orientation: Int) throws {
        let jpeg = try Self.orientedJPEG(orientation)
        let decoded = try ImageDecoder.decode(bytes: jpeg, fitting: Size(width: 20, height: 20))
        #expect(decoded.bitmap.size == Size(width: 20, height: 12))
        #expect(decoded.originalSize == Size(width: 40, height: 24))
        // Red grows to the right and green downwards in every orientation once displayed.
        let b = decoded.bitmap
        #expect(b.color(x: 1, y: 6).red < 40)
        #expect(b.color(x: 18, y: 6).red > 215)
        #expect(b.color(x: 10, y: 1).green < 40)
        #expect(b.color(x: 10, y: 10).green > 215)
    }

    @Test("apply(to:) moves each stored pixel where the EXIF table says", arguments: ExifOrientation.allCases)
    func exactTransform(orientation: ExifOrientation) {
        // Unique values per pixel, no compression: an exact check of the transform.
        let stored = Bitmap(width: 5, height: 3)
        for y in 0..<3 { for x in 0..<5 { stored.setPixel(x: x, y: y, UInt32(y * 5 + x)) } }
        let shown = orientation.apply(to: stored)
        let w = orientation.swapsDimensions ? 3 : 5, h = orientation.swapsDimensions ? 5 : 3
        #expect(shown.width == w && shown.height == h)
        for sy in 0..<3 {
            for sx in 0..<5 {
                let p = Fixtures.displayPosition(of: orientation.rawValue, sx: sx, sy: sy, width: w, height: h)
                #expect(shown.pixel(x: p.x, y: p.y) == UInt32(sy * 5 + sx))
            }
        }
    }

    @Test func missingOrInvalidOrientationMeansUp() throws {
        let plain = try Fixtures.jpeg(Self.display)
        #expect(try ImageDecoder.probe(bytes: plain).orientation == .up)
        let invalid = try JPEGEncoder.encode(Self.display, options: .init(markers: [.exif(tiff: TIFFBuilder(orientation: 9).build())]))
        let info = try ImageDecoder.probe(bytes: invalid)
        #expect(info.orientation == .up)
        #expect(info.exif != nil)
    }

    @Test func embeddedThumbnailIsDecodedWithTheMainOrientation() throws {
        let smallDisplay = Fixtures.gradient(width: 20, height: 12)
        let thumb = try JPEGEncoder.encode(Fixtures.stored(for: smallDisplay, orientation: 6), options: .init(quality: 100, fullChroma: true))
        let tiff = TIFFBuilder(orientation: 6, dateTimeOriginal: "2024:05:17 14:03:22", thumbnail: thumb).build()
        let jpeg = try JPEGEncoder.encode(Fixtures.stored(for: Self.display, orientation: 6),
                                          options: .init(quality: 90, markers: [.exif(tiff: tiff)]))
        let info = try ImageDecoder.probe(bytes: jpeg)
        #expect(info.exif?.thumbnail == thumb)
        #expect(info.exif?.dateTimeOriginal == "2024:05:17 14:03:22")
        #expect(try ImageDecoder.decode(bytes: jpeg).info.exif?.thumbnail == nil)  // not kept in caches
        #expect(try ImageDecoder.decode(bytes: jpeg).info.exif?.dateTimeOriginal == "2024:05:17 14:03:22")
        let decoded = try #require(try ImageDecoder.decodeEmbeddedThumbnail(of: info))
        #expect(decoded.bitmap.size == Size(width: 20, height: 12))
        #expect(decoded.originalSize == Size(width: 40, height: 24))
        #expect(PixelDifference(decoded.bitmap, smallDisplay).mean < 3)
        let fitted = try #require(try ImageDecoder.decodeEmbeddedThumbnail(of: info, fitting: Size(width: 10, height: 10)))
        #expect(fitted.bitmap.size == Size(width: 10, height: 6))
        #expect(try ImageDecoder.decodeEmbeddedThumbnail(of: ImageDecoder.probe(bytes: Fixtures.jpeg(Self.display))) == nil)
    }
}

import Testing
import TestSupport
import Glibc
import Graphics
@testable import Imaging

@Suite("PhotoFileDecoder (the loader's decoder)")
struct PhotoFileDecoderTests {
    let scratch = ScratchDirectory()

    func write(_ bytes: [UInt8]) throws -> String {
        let dir = scratch.newFolder("pfd")
        let path = dir + "/photo.jpg"
        try FileReader.write(bytes, to: path)
        return path
    }

    /// A photo whose main image is red and whose EXIF thumbnail is blue, so the test can tell
    /// which one was used.
    func photo(width: Int, height: Int, thumbWidth: Int, thumbHeight: Int) throws -> String {
        let thumb = try Fixtures.jpeg(Fixtures.solid(width: thumbWidth, height: thumbHeight, .blue))
        let tiff = TIFFBuilder(thumbnail: thumb).build()
        var options = JPEGEncoder.Options(quality: 90)
        options.markers = [.exif(tiff: tiff)]
        return try write(JPEGEncoder.encode(Fixtures.solid(width: width, height: height, .red), options: options))
    }

    func isBlue(_ b: Bitmap) -> Bool { let c = b.color(x: b.width / 2, y: b.height / 2); return c.blue > 200 && c.red < 60 }

    @Test func thumbnailCoversTheSquareCell() throws {
        let path = try write(Fixtures.jpeg(Fixtures.solid(width: 1600, height: 900, .green)))
        let b = try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath(path), size: .thumbnail(edge: 200)))).bitmap
        #expect(b.height == 200)
        #expect(b.width == 356)
    }

    @Test func thumbnailBoxCapsPanoramas() {
        let box = PhotoFileDecoder.thumbnailBox(for: Size(width: 10000, height: 500), edge: 100)
        #expect(box.width == 300)
        #expect(box.height == 100)
    }

    @Test func bigEnoughEmbeddedThumbnailIsUsed() throws {
        let path = try photo(width: 1600, height: 1200, thumbWidth: 320, thumbHeight: 240)
        let b = try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath(path), size: .thumbnail(edge: 160)))).bitmap
        #expect(isBlue(b))
        #expect(b.height == 160)
    }

    @Test(arguments: [(160, 120, 200), (320, 180, 160)])
    func smallOrMisshapenEmbeddedThumbnailIsNotUsed(thumbWidth: Int, thumbHeight: Int, edge: Int) throws {
        let path = try photo(width: 1600, height: 1200, thumbWidth: thumbWidth, thumbHeight: thumbHeight)
        let b = try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath(path), size: .thumbnail(edge: edge)))).bitmap
        #expect(!isBlue(b))
    }

    @Test func screenAndFullSizes() throws {
        let path = try write(Fixtures.jpeg(Fixtures.solid(width: 800, height: 600, .green)))
        let screen = try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath(path), size: .screen(width: 400, height: 400))))
        #expect(screen.bitmap.width == 400 && screen.bitmap.height == 300)
        let full = try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath(path), size: .full)))
        #expect(full.bitmap.width == 800 && full.bitmap.height == 600)
        // The header read for the decode travels with it: nobody opens the file again for it.
        #expect(screen.originalSize == Size(width: 800, height: 600) && full.originalSize == Size(width: 800, height: 600))
        #expect(screen.info?.pixelWidth == 800)
    }

    @Test func thumbnailsCarryTheOriginalSizeToo() throws {
        let path = try photo(width: 1600, height: 1200, thumbWidth: 320, thumbHeight: 240)
        let embedded = try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath(path), size: .thumbnail(edge: 160))))
        #expect(embedded.bitmap.height == 160 && embedded.originalSize == Size(width: 1600, height: 1200))
        #expect(embedded.info?.exif?.thumbnail == nil)
        let plain = try write(Fixtures.jpeg(Fixtures.solid(width: 900, height: 1600, .green)))
        let decoded = try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath(plain), size: .thumbnail(edge: 100))))
        #expect(decoded.bitmap.width == 100 && decoded.originalSize == Size(width: 900, height: 1600))
    }

    /// Issue 32: the size is picked from the header inside the one decode, so the file is
    /// opened once. Replacing the file while the plan runs (after the header, before the
    /// pixels) shows it: a second open would decode the replacement.
    @Test("a decode that picks its size from the header reads the file it opened once", arguments: ["jpeg", "png"])
    func sizePickedAfterTheHeaderUsesOneOpen(format: String) throws {
        func encoded(_ bitmap: Bitmap) throws -> [UInt8] {
            format == "jpeg" ? try Fixtures.jpeg(bitmap) : try PNGEncoder.encode(bitmap)
        }
        let path = try write(encoded(Fixtures.solid(width: 800, height: 400, .red)))
        let replacement = try encoded(Fixtures.solid(width: 300, height: 300, .blue))
        var seen: [Size] = []
        let decoded = try ImageDecoder.decode(path: RawPath(path)) { (info) throws(ImagingError) in
            seen.append(info.orientedSize)
            try FileReader.write(replacement, to: path)
            return .fit(Size(width: info.orientedSize.width / 4, height: info.orientedSize.height / 4))
        }
        #expect(seen == [Size(width: 800, height: 400)])
        #expect(decoded.bitmap.width == 200 && decoded.bitmap.height == 100)
        #expect(decoded.originalSize == Size(width: 800, height: 400))
        let middle = decoded.bitmap.color(x: 100, y: 50)
        #expect(middle.red > 200 && middle.blue < 60, "\(middle)")
        // The replacement is what a new open finds.
        #expect(try ImageDecoder.probe(path: path).pixelWidth == 300)
    }

    @Test("a plan that finishes skips the main decode and returns its own image")
    func planThatFinishes() throws {
        let path = try photo(width: 1600, height: 1200, thumbWidth: 320, thumbHeight: 240)
        let decoded = try ImageDecoder.decode(path: RawPath(path)) { (info) throws(ImagingError) in
            #expect(info.exif?.thumbnail != nil)   // the plan sees the EXIF thumbnail
            return .finished(DecodedImage(bitmap: Bitmap(width: 3, height: 2), originalSize: info.orientedSize,
                                          isPartial: false, info: info))
        }
        #expect(decoded.bitmap.width == 3 && decoded.originalSize == Size(width: 1600, height: 1200))
    }

    @Test func errorsNameTheFile() throws {
        let path = try write(Array("not an image".utf8))
        #expect(throws: ImagingError.self) {
            try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath(path), size: .thumbnail(edge: 100))))
        }
        do {
            _ = try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath(path), size: .thumbnail(edge: 100))))
        } catch {
            #expect("\(error)".contains("photo.jpg"))
        }
    }
}

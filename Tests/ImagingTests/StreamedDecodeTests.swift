import Glibc
import Graphics
import TestSupport
import Testing
@testable import Imaging

/// Decoding a file streams a JPEG into libjpeg from the open file (PhotoFileStream) instead of
/// reading it whole first: the same image, the same checks and errors.
@Suite("JPEG streamed from the file")
struct StreamedDecodeTests {
    @Test(arguments: [false, true])
    func samePixelsAsFromBytes(progressive: Bool) throws {
        let jpeg = try Fixtures.jpeg(Fixtures.scene(width: 640, height: 480), .init(quality: 90, progressive: progressive))
        let scratch = ScratchDirectory()
        // A name that is not UTF-8 travels as bytes.
        let path = scratch.path.appending([0x78, 0xFF] + Array(".jpg".utf8))
        writeFile(path, jpeg)
        for box in [nil, Size(width: 320, height: 240), Size(width: 200, height: 150)] as [Size?] {
            let streamed = try ImageDecoder.decode(path: path, fitting: box)
            let fromBytes = try ImageDecoder.decode(bytes: jpeg, fitting: box)
            #expect(streamed.bitmap.size == fromBytes.bitmap.size)
            #expect(PixelDifference(streamed.bitmap, fromBytes.bitmap).max == 0)
            #expect(!streamed.isPartial)
        }
        let viaLoader = try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: path, size: .screen(width: 320, height: 320)))).bitmap
        #expect(viaLoader.width == 320 && viaLoader.height == 240)
    }

    @Test func pngStillDecodes() throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("photo.png", bytes: try PNGEncoder.encode(Fixtures.scene(width: 64, height: 48)))
        #expect(try ImageDecoder.decode(path: path).bitmap.size == Size(width: 64, height: 48))
    }

    @Test func fileChecksAndErrorsAreKept() throws {
        let scratch = ScratchDirectory()
        let fifo = scratch["pipe.jpg"]
        #expect(fifo.withCString { mkfifo($0, 0o644) } == 0)
        #expect(throws: ImagingError.self) { try ImageDecoder.decode(path: fifo) }   // refused, not waited on
        let empty = scratch.file("empty.jpg")
        do {
            _ = try ImageDecoder.decode(path: empty)
            Issue.record("an empty file decoded")
        } catch {
            #expect(error.description.contains("empty.jpg") && error.description.contains("empty file"))
        }
        let big = scratch.file("big.jpg", bytes: try Fixtures.jpeg(Fixtures.scene(width: 64, height: 48)))
        #expect(throws: ImagingError.self) { try ImageDecoder.decode(path: big, options: .init(maxFileBytes: 100)) }
    }

    @Test func fileCutShortIsPartial() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.scene(width: 640, height: 480), .init(quality: 90))
        let scratch = ScratchDirectory()
        let path = scratch.file("cut.jpg", bytes: Array(jpeg[..<(jpeg.count / 2)]))
        let streamed = try ImageDecoder.decode(path: path)
        let fromBytes = try ImageDecoder.decode(bytes: Array(jpeg[..<(jpeg.count / 2)]))
        #expect(streamed.isPartial && fromBytes.isPartial)
        #expect(PixelDifference(streamed.bitmap, fromBytes.bitmap).max == 0)
    }
}

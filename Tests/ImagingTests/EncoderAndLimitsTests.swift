import Graphics
import Testing
@testable import Imaging

@Suite("Encoders, formats and limits")
struct EncoderAndLimitsTests {
    @Test func sniffLooksAtBytesOnly() {
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil)
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A]) == nil)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8)) == nil)
    }

    @Test func errorDescriptionNamesTheFile() {
        let plain = ImagingError(.corrupt, "corrupt JPEG: bad Huffman table")
        #expect(plain.description == "corrupt JPEG: bad Huffman table")
        #expect(plain.attributed(to: "/photos/2024/IMG_1.jpg").description == "IMG_1.jpg: corrupt JPEG: bad Huffman table")
    }

    @Test func progressiveScanLimit() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.scene(width: 64, height: 48), .init(progressive: true))
        var options = DecodeOptions()
        options.maxScans = 3
        let error = imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: jpeg, options: options) }
        #expect(error?.kind == .unsupported)
        #expect(error?.description.contains("more than 3 scans") == true, "\(String(describing: error))")
        options.maxScans = 100
        #expect(try ImageDecoder.decode(bytes: jpeg, options: options).bitmap.width == 64)
    }

    @Test func jpegEncoderRejectsBadParameters() {
        let bitmap = Fixtures.gradient(width: 8, height: 8)
        for quality in [0, 101] {
            let error = imagingError { () throws(ImagingError) in try JPEGEncoder.encode(bitmap, quality: quality) }
            #expect(error?.kind == .internalFailure)
        }
        let tooLong = JPEGEncoder.Marker(code: 0xE2, payload: [UInt8](repeating: 0, count: 70_000))
        #expect(imagingError { () throws(ImagingError) in try JPEGEncoder.encode(bitmap, options: .init(markers: [tooLong])) } != nil)
        #expect(imagingError { () throws(ImagingError) in try JPEGEncoder.encode(Bitmap(width: 0, height: 4)) } != nil)
    }

    @Test func jpegEncoderWritesMarkersAndGray() throws {
        let comment = JPEGEncoder.Marker(code: 0xFE, payload: Array("hello".utf8))
        let jpeg = try JPEGEncoder.encode(Fixtures.gradient(width: 16, height: 16), options: .init(markers: [comment]))
        #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.suffix(2) == [0xFF, 0xD9])
        let needle: [UInt8] = [0xFF, 0xFE, 0, 7] + Array("hello".utf8)
        #expect((0...(jpeg.count - needle.count)).contains { Array(jpeg[$0..<($0 + needle.count)]) == needle })
        // An A8 bitmap encodes as a one-component JPEG.
        let mask = Bitmap(width: 8, height: 8, format: .a8)
        for y in 0..<8 { mask.row(y).initializeMemory(as: UInt8.self, repeating: UInt8(y * 30), count: 8) }
        let gray = try JPEGEncoder.encode(mask, quality: 100)
        #expect(try ImageDecoder.probe(bytes: gray).colorSpace == .grayscale)
        let decoded = try ImageDecoder.decode(bytes: gray)
        #expect(abs(Int(decoded.bitmap.color(x: 3, y: 7).red) - 210) <= 3)
    }

    @Test func pngEncoderRejectsMasks() {
        #expect(imagingError { () throws(ImagingError) in try PNGEncoder.encode(Bitmap(width: 2, height: 2, format: .a8)) }?.kind == .internalFailure)
    }
}

import Basics
import Foundation
import Graphics
import TestSupport
import Testing
@testable import Imaging

@Suite("Truncated, corrupt and non-image data")
struct CorruptDataTests {
    static let source = Fixtures.scene(width: 96, height: 64)

    @Test func truncatedInsideTheScanIsPartial() throws {
        let jpeg = try Fixtures.jpeg(Self.source)
        let scan = try #require(Fixtures.scanDataOffset(jpeg))
        for cut in [scan + 10, scan + (jpeg.count - scan) / 2, jpeg.count - 40] {
            let bytes = Array(jpeg.prefix(cut))
            let decoded = try ImageDecoder.decode(bytes: bytes)
            #expect(decoded.isPartial, "cut at \(cut)")
            #expect(decoded.warning?.contains("Premature end") == true)
            #expect(decoded.bitmap.size == Size(width: 96, height: 64))
            // The same cut fitted to a smaller size is partial as well.
            #expect(try ImageDecoder.decode(bytes: bytes, fitting: Size(width: 24, height: 24)).isPartial)

            let strict = imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: bytes, options: DecodeOptions(strict: true)) }
            #expect(strict?.kind == .truncated, "cut at \(cut): \(String(describing: strict))")
        }
    }

    @Test func truncatedBeforeTheScanIsAnError() throws {
        let jpeg = try Fixtures.jpeg(Self.source)
        let scan = try #require(Fixtures.scanDataOffset(jpeg))
        for cut in [3, 4, 20, 100, scan - 5] {
            let bytes = Array(jpeg.prefix(cut))
            let error = try #require(imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: bytes) })
            #expect(error.kind == .truncated, "cut at \(cut): \(error)")
            #expect(imagingError { () throws(ImagingError) in try ImageDecoder.probe(bytes: bytes) }?.kind == .truncated)
        }
    }

    @Test func missingEndMarkerKeepsEveryPixel() throws {
        // libjpeg's Huffman decoder reads ahead, so a missing EOI still warns (partial), but
        // no pixel is lost.
        let jpeg = try Fixtures.jpeg(Self.source)
        let decoded = try ImageDecoder.decode(bytes: Array(jpeg.dropLast(2)))
        #expect(PixelDifference(decoded.bitmap, try ImageDecoder.decode(bytes: jpeg).bitmap).max == 0)
    }

    @Test func corruptScanDataIsPartialOrAnError() throws {
        var jpeg = try Fixtures.jpeg(Self.source)
        let scan = try #require(Fixtures.scanDataOffset(jpeg))
        for i in stride(from: scan + 20, to: scan + 60, by: 3) { jpeg[i] = 0xFF; jpeg[i + 1] = 0x00 }  // stuffed FF: valid syntax, wrong codes
        jpeg[scan + 100] = 0xFF
        jpeg[scan + 101] = 0xD9 // an early EOI
        let damaged = jpeg
        let decoded = try ImageDecoder.decode(bytes: damaged)
        #expect(decoded.isPartial)
        let strict = imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: damaged, options: DecodeOptions(strict: true)) }
        #expect(strict != nil)
    }

    @Test func brokenMarkerStructureIsCorrupt() throws {
        var jpeg = try Fixtures.jpeg(Self.source)
        let sof = try #require(Fixtures.sofPayloadOffset(jpeg))
        jpeg[sof + 5] = 0  // number of components
        let error = imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: jpeg) }
        #expect(error?.kind == .corrupt, "\(String(describing: error))")
    }

    @Test func emptyData() {
        let error = imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: []) }
        #expect(error?.kind == .notAnImage)
        #expect(error?.description.contains("empty") == true)
    }

    @Test func garbage() {
        var random = SeededRandom(seed: 7)
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
        let error = imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: bytes) }
        #expect(error?.kind == .notAnImage)
        #expect(error?.description.contains("starts with") == true)
        // Garbage behind a JPEG signature goes through libjpeg and comes back as an error.
        let disguised = [0xFF, 0xD8, 0xFF] + bytes
        #expect(imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: disguised) } != nil)
    }

    @Test func textNamedJPGNamesTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notes.jpg").path
        try Data("These are not the pixels you are looking for.\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(imagingError { () throws(ImagingError) in try ImageDecoder.decode(path: path) })
        #expect(error.kind == .notAnImage)
        #expect(error.fileName == "notes.jpg")
        #expect(error.description.hasPrefix("notes.jpg: "))
        #expect(error.description.contains("text"))
    }

    @Test func truncatedFileOnDiskNamesTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("IMG_0001.jpg").path
        try Data(Fixtures.jpeg(Self.source).prefix(50)).write(to: URL(fileURLWithPath: path))
        let error = try #require(imagingError { () throws(ImagingError) in try ImageDecoder.decode(path: path) })
        #expect(error.kind == .truncated)
        #expect(error.description.hasPrefix("IMG_0001.jpg: JPEG data ends early"), "\(error)")
    }
}

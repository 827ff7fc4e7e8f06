import Foundation
import Testing
@testable import Imaging

@Suite("File reading")
struct FileReaderTests {
    static func withFolder<T>(_ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder.path)
    }

    @Test func readsWholeFilesAndPrefixes() throws {
        try Self.withFolder { folder in
            let path = folder + "/data.bin"
            let bytes = (0..<100_000).map { UInt8($0 % 251) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try FileReader.read(path: path) == bytes)
            #expect(try FileReader.read(path: path, prefix: 10) == Array(bytes.prefix(10)))
            let error = imagingError { () throws(ImagingError) in try FileReader.read(path: path, maxBytes: 99_999) }
            #expect(error?.kind == .tooLarge)
            #expect(error?.description == "data.bin: file is 100000 bytes, more than the limit of 99999 bytes")
            try Data().write(to: URL(fileURLWithPath: folder + "/empty.jpg"))
            #expect(try FileReader.read(path: folder + "/empty.jpg") == [])
        }
    }

    @Test func clearErrors() throws {
        try Self.withFolder { folder in
            let missing = imagingError { () throws(ImagingError) in try FileReader.read(path: folder + "/nope.jpg") }
            #expect(missing?.kind == .io)
            #expect(missing?.description == "nope.jpg: no such file")
            try FileManager.default.createDirectory(atPath: folder + "/album.jpg", withIntermediateDirectories: false)
            let directory = imagingError { () throws(ImagingError) in try FileReader.read(path: folder + "/album.jpg") }
            #expect(directory?.description == "album.jpg: is a directory, not an image file")
            let notDirectory = imagingError { () throws(ImagingError) in try FileReader.read(path: folder + "/nope.jpg/x.jpg") }
            #expect(notDirectory?.kind == .io)
            #expect(mkfifo(folder + "/pipe.jpg", 0o644) == 0)
            let fifo = imagingError { () throws(ImagingError) in try FileReader.read(path: folder + "/pipe.jpg") }
            #expect(fifo?.description == "pipe.jpg: not a regular file")

            let locked = folder + "/locked.jpg"
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: locked))
            #expect(chmod(locked, 0) == 0)
            if getuid() != 0 {  // root reads anything
                let denied = imagingError { () throws(ImagingError) in try FileReader.read(path: locked) }
                #expect(denied?.description == "locked.jpg: permission denied")
            }
        }
    }

    @Test func probeFromAFileReadsBigHeadersToo() throws {
        try Self.withFolder { folder in
            // A 300 KB comment before the frame header: more than the probe's first read.
            var markers: [JPEGEncoder.Marker] = []
            for _ in 0..<5 { markers.append(.init(code: 0xFE, payload: [UInt8](repeating: 0x41, count: 60_000))) }
            let jpeg = try JPEGEncoder.encode(Fixtures.gradient(width: 30, height: 20), options: .init(markers: markers))
            #expect(jpeg.count > ImageDecoder.probePrefixBytes)
            let path = folder + "/big-header.jpg"
            try Data(jpeg).write(to: URL(fileURLWithPath: path))
            let info = try ImageDecoder.probe(path: path)
            #expect(info.pixelWidth == 30 && info.pixelHeight == 20)
            let error = imagingError { () throws(ImagingError) in try ImageDecoder.probe(path: folder + "/missing.jpg") }
            #expect(error?.description == "missing.jpg: no such file")
        }
    }
}

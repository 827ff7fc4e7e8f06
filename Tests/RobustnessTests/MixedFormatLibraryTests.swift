import Graphics
import Imaging
import TestSupport
import Testing
@testable import PhotoKioskApp

/// Issue 17, "done means": a folder of HEIC, AVIF, WebP, JPEG and PNG photos, several stored
/// turned (HEIF irot, EXIF orientation in JPEG and WebP), shows every photo upright in the grid
/// and in the album, through the whole headless app.
@Suite(.serialized) struct MixedFormatLibraryTests {
    /// The picture every file shows when upright: red top half, blue bottom half.
    static let upright: Bitmap = {
        let bitmap = Bitmap(width: 320, height: 240)
        Canvas(target: bitmap).fill(Rect(x: 0, y: 0, width: 320, height: 120), color: .red)
        Canvas(target: bitmap).fill(Rect(x: 0, y: 120, width: 320, height: 120), color: .blue)
        return bitmap
    }()

    /// The pixels a camera stores so that `orientation` shows `upright`.
    static func stored(_ orientation: ExifOrientation) -> Bitmap {
        let inverse: [ExifOrientation: ExifOrientation] = [.right: .left, .left: .right]
        return (inverse[orientation] ?? orientation).apply(to: upright)
    }

    static func makeFolder(_ dir: String) throws -> [String] {
        let exif6 = JPEGEncoder.Marker.exif(tiff: Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0])
        try FileReader.write(JPEGEncoder.encode(stored(.right), options: .init(quality: 92, markers: [exif6])), to: dir + "/a-exif6.jpg")
        try FileReader.write(PNGEncoder.encode(upright), to: dir + "/b.png")
        try HEIFWriter(image: stored(.right), orientation: 6).write(to: dir + "/c-irot6.heic")
        try HEIFWriter(image: stored(.down), orientation: 3).write(to: dir + "/d-irot3.heic")
        let avif = try EncodedFixture.write(upright, as: .avif, to: dir, name: "e")
        let webp = try EncodedFixture.write(stored(.left), as: .webp, to: dir, name: "f-exif8")
        // EXIF orientation 8 into the WebP's EXIF chunk.
        try FileReader.write(Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 8, 0, 0, 0, 0, 0, 0],
                             to: dir + "/exif8.tiff")
        try ExternalTool.run("webpmux", ["-set", "exif", dir + "/exif8.tiff", webp, "-o", dir + "/f-exif8-tagged.webp"])
        // Only the photos stay in the folder (the encoders' PNG sources and untagged copy go).
        for name in ["e-source.png", "f-exif8-source.png", "f-exif8.webp", "exif8.tiff"] { removeTree(dir + "/" + name) }
        _ = avif
        return directoryNames(dir)
    }

    @Test func everyFormatShowsUprightInTheGridAndTheAlbum() throws {
        let folder = makeTemporaryDirectory("mixed-formats")
        defer { removeTree(folder) }
        let names = try Self.makeFolder(folder)
        #expect(names == ["a-exif6.jpg", "b.png", "c-irot6.heic", "d-irot3.heic", "e.avif", "f-exif8-tagged.webp"])
        let capture = LogCapture()
        let (app, display) = try makeHeadlessApp(folders: [folder], logger: capture.logger)
        #expect(try app.runUntilSettled(timeout: 60))
        #expect(app.photos.count == names.count)
        #expect(capture.warnings.isEmpty, "\(capture.warnings)")

        let edge = app.grid.thumbnailEdge
        for index in 0..<app.photos.count {
            let label = String(decoding: app.photos[index].path.lastComponent, as: UTF8.self)
            guard case .image = app.thumbnails.thumbnailState(at: index, edge: edge) else {
                Issue.record("\(label) is not shown"); continue
            }
            // The cell crops the 4:3 photo to a square: its top quarter is red, its bottom quarter blue.
            let frame = app.grid.convert(app.grid.layout.frame(of: index), to: nil)
            for fx in [0.25, 0.75] {
                let x = Int(frame.minX + frame.width * fx)
                let top = display.frameBuffer.color(x: x, y: Int(frame.minY + frame.height * 0.2))
                let bottom = display.frameBuffer.color(x: x, y: Int(frame.minY + frame.height * 0.8))
                #expect(colorsClose(top, .red, tolerance: 40), "\(label) top at \(fx): \(top)")
                #expect(colorsClose(bottom, .blue, tolerance: 40), "\(label) bottom at \(fx): \(bottom)")
            }
        }

        // The album, at the screen-sized decode: the same picture, fitted (800x600 in 1600x1200).
        for index in [2, 3, 5] {
            app.openPhoto(at: index)
            #expect(try app.runUntilSettled(timeout: 30))
            let album = try #require(app.album)
            #expect(album.centerPage?.content.quality == .screen)
            #expect(album.centerPage?.content.originalSize == Size(width: 320, height: 240))
            let label = names[index]
            for (x, y, color) in [(400, 300, Color.red), (1200, 300, .red), (400, 900, .blue), (1200, 900, .blue)] {
                let seen = display.frameBuffer.color(x: x, y: y)
                #expect(colorsClose(seen, color, tolerance: 40), "\(label) album at \(x),\(y): \(seen)")
            }
        }
    }
}

import Graphics
import Imaging
import Logging
import Platform
@testable import PhotoKioskApp
import Testing
import TestSupport

/// `sort = "date"` orders the grid by EXIF DateTimeOriginal (JPEG, and any format the decoder
/// probes), and by the file time for a photo without one.
@Suite struct DateOrderTests {
    @Test func theGridFollowsTheDateTakenNotTheName() throws {
        let folder = makeTemporaryDirectory("dateorder")
        defer { removeTree(folder) }
        func write(_ name: String, taken: String?) throws {
            var options = JPEGEncoder.Options(quality: 90)
            if let taken { options.markers = [.exif(tiff: TIFFBuilder(dateTimeOriginal: taken).build())] }
            try FileReader.write(try JPEGEncoder.encode(Bitmap(width: 64, height: 48), options: options), to: folder + "/" + name)
        }
        try write("a.jpg", taken: "2021:07:04 10:20:30")
        try write("b.jpg", taken: "2019:12:31 23:59:58")
        try write("c.jpg", taken: "2020:01:01 00:00:00")
        try write("d.jpg", taken: nil)   // no EXIF: its file time, now, is the newest
        try write("e.jpg", taken: "0000:00:00 00:00:00")   // an unset camera clock: also its file time

        func order(_ sort: KioskConfig.Sort) throws -> [String] {
            var config = KioskConfig()
            config.library.sort = sort
            let app = KioskApp(config: config, folders: [folder], display: HeadlessDisplay(width: 400, height: 300),
                               loop: try EventLoop(signals: []), thumbnailCacheDirectory: nil, logger: .init(label: "test"))
            try app.start()
            #expect(try app.runUntilSettled(timeout: 20))
            return (0..<app.photos.count).map { app.photos[$0].path.description.split(separator: "/").last.map(String.init) ?? "" }
        }
        #expect(try order(.name) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg"])
        let byDate = try order(.date)
        #expect(Array(byDate.prefix(3)) == ["b.jpg", "c.jpg", "a.jpg"], "\(byDate)")
        #expect(Set(byDate.suffix(2)) == ["d.jpg", "e.jpg"], "\(byDate)")
    }
}

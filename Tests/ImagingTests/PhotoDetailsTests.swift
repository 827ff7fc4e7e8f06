import Basics
import Graphics
import TestSupport
import Testing
@testable import Imaging

/// The overlay's caption and position: which metadata wins, and what is refused. Fixtures are
/// real JPEG files with the segments cameras and editors write.
@Suite struct PhotoDetailsTests {
    let scratch = ScratchDirectory()

    func photo(_ markers: [JPEGEncoder.Marker]) throws -> RawPath {
        let bitmap = Bitmap(width: 16, height: 12)
        let bytes = try JPEGEncoder.encode(bitmap, options: .init(quality: 80, markers: markers))
        return scratch.file("photo-\(markers.count)-\(Int.random(in: 0..<1_000_000)).jpg", bytes: bytes)
    }

    func exif(_ builder: TIFFBuilder) -> JPEGEncoder.Marker { .exif(tiff: builder.build()) }

    @Test func captionComesFromTheFirstSourceInOrder() throws {
        let description = exif(TIFFBuilder(imageDescription: Array("Harbour at dawn".utf8), xpTitle: "XP title"))
        let xpOnly = exif(TIFFBuilder(xpTitle: "Grandma's 80th"))
        let xmp = MetadataFixtures.xmp(title: "XMP title", description: "XMP description")
        let xmpDescription = MetadataFixtures.xmp(title: nil, description: "Only a description")
        let iptc = MetadataFixtures.iptc(caption: Array("IPTC caption".utf8))

        #expect(PhotoDetails.read(path: try photo([description, xmp, iptc])).caption == "Harbour at dawn")
        #expect(PhotoDetails.read(path: try photo([xpOnly, xmp, iptc])).caption == "Grandma's 80th")
        #expect(PhotoDetails.read(path: try photo([xmp, iptc])).caption == "XMP title")
        #expect(PhotoDetails.read(path: try photo([xmpDescription, iptc])).caption == "Only a description")
        #expect(PhotoDetails.read(path: try photo([iptc])).caption == "IPTC caption")
        #expect(PhotoDetails.read(path: try photo([])).caption == nil)
    }

    @Test func cameraPlaceholdersAndBlanksAreSkipped() throws {
        let placeholder = exif(TIFFBuilder(imageDescription: Array("OLYMPUS DIGITAL CAMERA         ".utf8)))
        let blank = exif(TIFFBuilder(imageDescription: Array("   \t ".utf8)))
        let iptc = MetadataFixtures.iptc(caption: Array("Lake Bled".utf8))
        #expect(PhotoDetails.read(path: try photo([placeholder, iptc])).caption == "Lake Bled")
        #expect(PhotoDetails.read(path: try photo([blank])).caption == nil)
    }

    @Test func textIsDecodedAndFoldedToOneLine() throws {
        let utf8 = exif(TIFFBuilder(imageDescription: Array("Zürich,\n  Café  Odéon".utf8)))
        #expect(PhotoDetails.read(path: try photo([utf8])).caption == "Zürich, Café Odéon")
        // Latin-1 bytes (not valid UTF-8) as older cameras and editors store them.
        let latin1 = exif(TIFFBuilder(imageDescription: [0x4D, 0xFC, 0x6E, 0x63, 0x68, 0x65, 0x6E]))
        #expect(PhotoDetails.read(path: try photo([latin1])).caption == "München")
        let escaped = MetadataFixtures.xmp(title: "Tom &amp; Jerry &#x2764; &lt;3", description: nil)
        #expect(PhotoDetails.read(path: try photo([escaped])).caption == "Tom & Jerry ❤ <3")
        let iptc = MetadataFixtures.iptc(caption: Array("Größe".utf8))
        #expect(PhotoDetails.read(path: try photo([iptc])).caption == "Größe")
    }

    @Test func xmpPrefersTheDefaultLanguage() throws {
        let xmp = MetadataFixtures.xmp(title: "Sunset", description: nil, extraLanguages: ["de": "Sonnenuntergang"])
        #expect(PhotoDetails.read(path: try photo([xmp])).caption == "Sunset")
    }

    @Test func xmpIsFoundOutsideJPEGSegments() {
        // A packet inside another container (a PNG iTXt, a WebP chunk): found by its markers.
        let bytes = [UInt8](repeating: 7, count: 100) + Array(MetadataFixtures.xmpPacket(title: "In a chunk", description: nil).utf8)
            + [UInt8](repeating: 0, count: 50)
        #expect(XMPPacket(searching: bytes)?.title == "In a chunk")
        #expect(XMPPacket(searching: Array("<x:xmpmeta><dc:title/></x:xmpmeta>".utf8)) == nil)
    }

    @Test(arguments: [false, true])
    func gpsPositionInBothByteOrders(bigEndian: Bool) throws {
        let places: [(Double, Double)] = [(46.3683, 14.1136), (-33.8568, 151.2153), (40.6892, -74.0445), (-22.9519, -43.2105)]
        for (latitude, longitude) in places {
            let file = try photo([exif(TIFFBuilder(bigEndian: bigEndian, dateTimeOriginal: "2021:07:04 10:20:30",
                                                   gps: (latitude, longitude)))])
            let details = PhotoDetails.read(path: file)
            let position = try #require(details.position)
            #expect(abs(position.latitude - latitude) < 1e-6 && abs(position.longitude - longitude) < 1e-6, "\(position)")
            #expect(details.dateTimeOriginal == "2021:07:04 10:20:30")
        }
    }

    @Test func noFixIsNoPosition() throws {
        #expect(PhotoDetails.read(path: try photo([exif(TIFFBuilder(gps: (0, 0)))])).position == nil)
        #expect(GeoPosition(latitude: 91, longitude: 0) == nil)
        #expect(GeoPosition(latitude: 10, longitude: -180.5) == nil)
    }

    @Test func distanceIsTheGreatCircle() throws {
        let paris = try #require(GeoPosition(latitude: 48.8566, longitude: 2.3522))
        let london = try #require(GeoPosition(latitude: 51.5074, longitude: -0.1278))
        #expect(abs(paris.kilometres(to: london) - 343.5) < 1)
    }

    @Test func brokenSegmentsNeverCrash() throws {
        let good = try JPEGEncoder.encode(Bitmap(width: 8, height: 8), options: .init(markers: [
            exif(TIFFBuilder(imageDescription: Array("x".utf8), gps: (1, 2))),
            MetadataFixtures.xmp(title: "t", description: "d"),
            MetadataFixtures.iptc(caption: Array("c".utf8)),
        ]))
        var random = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                bytes[Int.random(in: 2..<min(bytes.count, 700), using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random))) }
            _ = PhotoDetails.parse(bytes)
        }
        #expect(PhotoDetails.parse(good).caption == "x")
    }
}

/// Captions and positions in WebP: EXIF and XMP chunks set with webpmux (libwebp's own tool).
@Suite struct PhotoDetailsWebPTests {
    let scratch = ScratchDirectory()

    @Test func webpExifAndXMPChunks() throws {
        let dir = scratch.path.description
        let plain = try EncodedFixture.write(Bitmap(width: 32, height: 16), as: .webpLossless, to: dir, name: "p")
        try FileReader.write(TIFFBuilder(imageDescription: Array("From the EXIF chunk".utf8), gps: (latitude: -33.8568, longitude: 151.2153)).build(),
                             to: dir + "/exif.tiff")
        try FileReader.write(Array(MetadataFixtures.xmpPacket(title: "From the XMP chunk", description: nil).utf8), to: dir + "/packet.xmp")
        try ExternalTool.run("webpmux", ["-set", "exif", dir + "/exif.tiff", plain, "-o", dir + "/exif.webp"])
        try ExternalTool.run("webpmux", ["-set", "xmp", dir + "/packet.xmp", plain, "-o", dir + "/xmp.webp"])

        let withExif = PhotoDetails.read(path: RawPath(dir + "/exif.webp"))
        #expect(withExif.caption == "From the EXIF chunk")
        #expect(abs((withExif.position?.latitude ?? 0) + 33.8568) < 1e-6)
        #expect(PhotoDetails.read(path: RawPath(dir + "/xmp.webp")).caption == "From the XMP chunk")
        #expect(PhotoDetails.read(path: RawPath(plain)).isEmpty)
    }
}

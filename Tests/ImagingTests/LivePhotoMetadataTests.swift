import Basics
import Foundation
import TestSupport
import Testing
@testable import Imaging

/// Issue 35 item 2: the two halves of a Live Photo carry one content identifier (the still in
/// Apple's EXIF maker note, the MOV in its QuickTime metadata); a Motion Photo's XMP says where its
/// MP4 starts. Built here byte by byte as iOS and Android lay them out, and with a real clip.
@Suite("Live Photo and Motion Photo metadata")
struct LivePhotoMetadataTests {
    static let identifier = "FFCBAC24-E547-4BBC-AF47-38B1A3D845E3"

    // MARK: the still's maker note

    static func appleMakerNote(_ identifier: String, bigEndian: Bool = true, tag: Int = 0x0011) -> [UInt8] {
        LivePhotoFixtures.appleMakerNote(identifier, bigEndian: bigEndian, tag: tag)
    }

    static func exif(makerNote: [UInt8]) -> [UInt8] { LivePhotoFixtures.exif(makerNote: makerNote) }

    @Test("an iPhone still's maker note gives its content identifier, in both byte orders", arguments: [true, false])
    func makerNote(bigEndian: Bool) throws {
        let exif = try #require(ExifData.parse(Self.exif(makerNote: Self.appleMakerNote(Self.identifier, bigEndian: bigEndian))))
        #expect(exif.contentIdentifier == Self.identifier)
        // Lower case as some tools write it: compared as iOS writes it.
        let lower = try #require(ExifData.parse(Self.exif(makerNote: Self.appleMakerNote(Self.identifier.lowercased()))))
        #expect(lower.contentIdentifier == Self.identifier)
    }

    @Test("maker notes that are not Apple's, or are damaged, give no identifier")
    func badMakerNotes() throws {
        let good = Self.appleMakerNote(Self.identifier)
        var otherMaker = good; otherMaker.replaceSubrange(0..<5, with: Array("Nikon".utf8))
        var badOrder = good; badOrder[12] = 0x58
        let cases: [(String, [UInt8])] = [
            ("another maker's note", otherMaker),
            ("no byte order", badOrder),
            ("cut before the identifier", Array(good.prefix(50))),
            ("cut inside the IFD", Array(good.prefix(20))),
            ("the identifier under another tag", Self.appleMakerNote(Self.identifier, tag: 0x0012)),
            ("not an identifier's characters", Self.appleMakerNote("FFCBAC24 E547;4BBC")),
            ("too short to be one", Self.appleMakerNote("ABC")),
            ("too long to be one", Self.appleMakerNote(String(repeating: "A", count: 90))),
        ]
        for (what, note) in cases {
            let exif = ExifData.parse(Self.exif(makerNote: note))
            #expect(exif != nil, "\(what): the rest of the EXIF still reads")
            #expect(exif?.contentIdentifier == nil, "\(what)")
        }
    }

    // MARK: the MOV's metadata

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { LivePhotoFixtures.box(type, body) }

    static func u32(_ v: Int) -> [UInt8] { LivePhotoFixtures.u32(v) }

    static func quickTimeMeta(_ identifier: String, isoFullBox: Bool = false, keyName: String = "com.apple.quicktime.content.identifier") -> [UInt8] {
        LivePhotoFixtures.quickTimeMeta(identifier, isoFullBox: isoFullBox, keyName: keyName)
    }

    static func mov(moovContents: [UInt8], moovFirst: Bool) -> [UInt8] { LivePhotoFixtures.mov(moovContents: moovContents, moovFirst: moovFirst) }

    @Test("a Live Photo MOV's content identifier, wherever its moov is, in QuickTime's and ISO's meta",
          arguments: [(true, false), (false, false), (false, true)])
    func movIdentifier(moovFirst: Bool, isoFullBox: Bool) {
        let file = Self.mov(moovContents: Self.quickTimeMeta(Self.identifier, isoFullBox: isoFullBox), moovFirst: moovFirst)
        #expect(QuickTimeMetadata.contentIdentifier(file) == Self.identifier)
    }

    @Test("the media data is skipped, not read: only box headers and the moov are asked for")
    func readsOnlyHeadersAndMoov() {
        let file = Self.mov(moovContents: Self.quickTimeMeta(Self.identifier), moovFirst: false)
        var bytesRead = 0
        let found = QuickTimeMetadata.contentIdentifier(fileSize: file.count) { offset, count in
            let slice = Array(file[offset..<min(file.count, offset + count)])
            bytesRead += slice.count
            return slice
        }
        #expect(found == Self.identifier)
        #expect(bytesRead < 1000, "read \(bytesRead) of \(file.count) bytes")
    }

    @Test("MOVs without the identifier or with damaged boxes give none")
    func badMOVs() {
        let good = Self.mov(moovContents: Self.quickTimeMeta(Self.identifier), moovFirst: true)
        var oversized = good; oversized[3] = 0xFF                                     // ftyp claims more than the file
        let cases: [(String, [UInt8])] = [
            ("no meta", Self.mov(moovContents: [], moovFirst: true)),
            ("another key only", Self.mov(moovContents: Self.quickTimeMeta(Self.identifier, keyName: "com.apple.quicktime.make"), moovFirst: true)),
            ("cut in the moov", Array(good.prefix(good.count - 1 - 5000 - 30))),
            ("a box bigger than the file", oversized),
            ("empty", []),
            ("not a box", Array("hello, world".utf8)),
        ]
        for (what, file) in cases { #expect(QuickTimeMetadata.contentIdentifier(file) == nil, "\(what)") }
        // A moov of 8 MB in a 16 MB file: more than any clip's; it is not read at all.
        var largest = 0
        let huge = QuickTimeMetadata.contentIdentifier(fileSize: 16 << 20) { offset, count in
            largest = max(largest, count)
            return offset == 0 ? Self.u32(8 << 20) + Array("moov".utf8) + [UInt8](repeating: 0, count: 8) : nil
        }
        #expect(huge == nil && largest <= 16, "asked for \(largest) bytes at once")
    }

    /// A short H.264 MP4 made by gst-launch-1.0 (what a phone's clip is, without its metadata).
    static func realH264Clip() throws -> [UInt8] {
        let scratch = ScratchDirectory()
        let path = try ClipFixture.write(pattern: "ball", width: 64, height: 48, frames: 10, as: .mp4, to: scratch.path.description, name: "clip")
        return try #require(readFile(RawPath(path)))
    }

    @Test("a real clip from gst-launch: no identifier; with iOS's meta put in its moov, the identifier",
          .enabled(if: ClipFixture.canRun, "needs \(ClipFixture.missingElements.joined(separator: ", "))"))
    func realClip() throws {
        var file = try Self.realH264Clip()
        #expect(QuickTimeMetadata.contentIdentifier(file) == nil)
        // Find the moov at the top level and append the meta box inside it.
        var offset = 0
        while offset + 8 <= file.count {
            let size = Int(file[offset]) << 24 | Int(file[offset + 1]) << 16 | Int(file[offset + 2]) << 8 | Int(file[offset + 3])
            if String(decoding: file[(offset + 4)..<(offset + 8)], as: UTF8.self) == "moov" {
                let meta = Self.quickTimeMeta(Self.identifier)
                file.insert(contentsOf: meta, at: offset + size)
                file.replaceSubrange(offset..<(offset + 4), with: Self.u32(size + meta.count))
                break
            }
            try #require(size >= 8)
            offset += size
        }
        #expect(QuickTimeMetadata.contentIdentifier(file) == Self.identifier)
    }

    // MARK: Motion Photos

    /// A JPEG (the bundled sample) with a Motion Photo XMP packet, then `video` appended.
    static func motionPhoto(xmp: String, video: [UInt8]) throws -> [UInt8] {
        LivePhotoFixtures.motionPhoto(jpeg: try Fixtures.jpeg(Fixtures.gradient(width: 64, height: 48)), xmp: xmp, video: video)
    }

    static let fakeMP4 = box("ftyp", Array("mp42".utf8) + [0, 0, 0, 0] + Array("isommp42".utf8)) + box("mdat", [UInt8](repeating: 7, count: 3000))

    static func containerXMP(length: Int, motion: String = "1") -> String {
        LivePhotoFixtures.containerXMP(length: length, motion: motion)
    }

    static func locate(_ file: [UInt8]) -> Range<Int>? {
        MotionPhoto.embeddedVideo(head: Array(file.prefix(256 << 10)), fileSize: file.count) { offset, count in
            guard offset >= 0, offset < file.count else { return nil }
            return Array(file[offset..<min(file.count, offset + count)])
        }
    }

    @Test("a Motion Photo's video is found from its XMP: the container directory and the older Micro Video")
    func motionPhotos() throws {
        let video = Self.fakeMP4
        let container = try Self.motionPhoto(xmp: Self.containerXMP(length: video.count), video: video)
        #expect(Self.locate(container) == (container.count - video.count)..<container.count)
        let micro = try Self.motionPhoto(xmp: """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/">
            <GCamera:MicroVideo>1</GCamera:MicroVideo><GCamera:MicroVideoVersion>1</GCamera:MicroVideoVersion>
            <GCamera:MicroVideoOffset>\(video.count)</GCamera:MicroVideoOffset></rdf:Description></rdf:RDF></x:xmpmeta>
            """, video: video)
        #expect(Self.locate(micro) == (micro.count - video.count)..<micro.count)
    }

    @Test("XMP that points nowhere sensible finds no video")
    func badMotionPhotos() throws {
        let video = Self.fakeMP4
        let cases: [(String, [UInt8])] = [
            ("not marked as motion", try Self.motionPhoto(xmp: Self.containerXMP(length: video.count, motion: "0"), video: video)),
            ("a length that misses the ftyp", try Self.motionPhoto(xmp: Self.containerXMP(length: video.count - 8), video: video)),
            ("a length past the start of the file", try Self.motionPhoto(xmp: Self.containerXMP(length: 1 << 30), video: video)),
            ("a length of 40 digits", try Self.motionPhoto(xmp: Self.containerXMP(length: 0).replacingOccurrences(of: "Length=\"0\"/></rdf:li>\n  </rdf:Seq>", with: "x").replacingOccurrences(of: "Item:Semantic=\"MotionPhoto\" Item:Length=\"0\"", with: "Item:Semantic=\"MotionPhoto\" Item:Length=\"\(String(repeating: "9", count: 40))\""), video: video)),
            ("no video appended", try Self.motionPhoto(xmp: Self.containerXMP(length: video.count), video: [])),
            ("a plain JPEG", try Fixtures.jpeg(Fixtures.gradient(width: 64, height: 48))),
        ]
        for (what, file) in cases { #expect(Self.locate(file) == nil, "\(what)") }
    }

    @Test("a real H.264 clip appended to a photo is found and is a clip from its first byte",
          .enabled(if: ClipFixture.canRun, "needs \(ClipFixture.missingElements.joined(separator: ", "))"))
    func realMotionPhoto() throws {
        let video = try Self.realH264Clip()
        let file = try Self.motionPhoto(xmp: Self.containerXMP(length: video.count), video: video)
        let range = try #require(Self.locate(file))
        #expect(Array(file[range]) == video)
        #expect(ClipDecoder.sniff(Array(file[range].prefix(64))) != nil, "the range starts a clip the decoder takes")
    }
}

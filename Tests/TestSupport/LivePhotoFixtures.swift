import Graphics
import Imaging

/// The two halves of an iPhone Live Photo, built byte by byte as iOS lays them out: the still's
/// EXIF with Apple's maker note (its content identifier) and a QuickTime movie whose metadata
/// carries the same identifier.
public enum LivePhotoFixtures {
    /// Apple's maker note: signature, version, byte order, an IFD of two entries (a LONG and the
    /// identifier as ASCII at an offset from the note's start).
    public static func appleMakerNote(_ identifier: String, bigEndian: Bool = true, tag: Int = 0x0011) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        let text = Array(identifier.utf8) + [0]
        var note = Array("Apple iOS\0".utf8) + [0, 1] + (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49])
        note += u16(2)
        note += u16(0x0001) + u16(4) + u32(1) + u32(14)
        note += u16(tag) + u16(2) + u32(text.count) + u32(14 + 2 + 24 + 4)
        note += u32(0)
        return note + text
    }

    /// A little-endian EXIF block whose Exif IFD holds `makerNote` (tag 0x927C, UNDEFINED).
    public static func exif(makerNote: [UInt8]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        var out: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        out += u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(26) + u32(0)          // IFD0 -> Exif IFD at 26
        out += u16(1) + u16(0x927C) + u16(7) + u32(makerNote.count) + u32(44) + u32(0)
        return out + makerNote
    }

    public static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = body.count + 8
        return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + body
    }

    public static func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// QuickTime metadata as iOS writes it into a Live Photo's MOV: keys (the identifier's key
    /// second, after another) and ilst (items numbered by key).
    public static func quickTimeMeta(_ identifier: String, isoFullBox: Bool = false, keyName: String = "com.apple.quicktime.content.identifier") -> [UInt8] {
        let keyNames = ["com.apple.quicktime.location.ISO6709", keyName]
        var keys: [UInt8] = [0, 0, 0, 0] + u32(keyNames.count)
        for name in keyNames { keys += u32(8 + name.utf8.count) + Array("mdta".utf8) + Array(name.utf8) }
        func item(_ index: Int, _ value: String) -> [UInt8] {
            let data = box("data", u32(1) + u32(0) + Array(value.utf8))
            let size = data.count + 8
            return u32(size) + u32(index) + data
        }
        let ilst = box("ilst", item(1, "+48.8577+002.2950/") + item(2, identifier))
        let hdlr = box("hdlr", [UInt8](repeating: 0, count: 8) + Array("mdta".utf8) + [UInt8](repeating: 0, count: 13))
        return box("meta", (isoFullBox ? [0, 0, 0, 0] : []) + hdlr + box("keys", keys) + ilst)
    }

    public static func mov(moovContents: [UInt8], moovFirst: Bool) -> [UInt8] {
        let ftyp = box("ftyp", Array("qt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8))
        let mdat = box("mdat", [UInt8](repeating: 0xAB, count: 5000))
        let moov = box("moov", box("mvhd", [UInt8](repeating: 0, count: 100)) + moovContents)
        return moovFirst ? ftyp + moov + mdat : ftyp + mdat + moov
    }

    /// A JPEG whose EXIF holds Apple's maker note with `identifier` (nil: no maker note at all).
    public static func stillJPEG(identifier: String?, width: Int = 64, height: Int = 48) throws -> [UInt8] {
        let bitmap = Bitmap(width: width, height: height)
        Canvas(target: bitmap).clear(.blue)
        let markers = identifier.map { [JPEGEncoder.Marker.exif(tiff: exif(makerNote: appleMakerNote($0)))] } ?? []
        return try JPEGEncoder.encode(bitmap, options: JPEGEncoder.Options(quality: 90, markers: markers))
    }

    /// A Live Photo's movie with `identifier` in its metadata (nil: none).
    public static func movie(identifier: String?) -> [UInt8] {
        mov(moovContents: identifier.map { quickTimeMeta($0) } ?? [], moovFirst: true)
    }

    /// A Google Motion Photo: `jpeg` with `xmp` in an APP1 segment after its SOI, `video` appended.
    public static func motionPhoto(jpeg: [UInt8], xmp: String, video: [UInt8]) -> [UInt8] {
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8)
        let length = payload.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + app1 + Array(jpeg[2...]) + video
    }

    /// Google's container XMP naming a video of `length` bytes at the end of the file.
    public static func containerXMP(length: Int, motion: String = "1") -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
          xmlns:Container="http://ns.google.com/photos/1.0/container/"
          xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
          GCamera:MotionPhoto="\(motion)" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="968644">
        <Container:Directory><rdf:Seq>
          <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li>
          <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\(length)"/></rdf:li>
        </rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>
        """
    }
}

import Basics

/// Where the video of a Motion Photo (Google's format, which Pixel and recent Samsung phones
/// write) sits inside its JPEG: the MP4 is appended after the image, and the XMP packet says how
/// many bytes from the end it starts.
///
/// Two spellings are read, both counting back from the end of the file:
/// - Motion Photo 1.0: `Camera:MotionPhoto="1"` and a `Container:Directory` whose item with
///   `Item:Semantic="MotionPhoto"` has `Item:Length` (the video is the last item);
/// - the older Micro Video: `MicroVideo="1"` and `MicroVideoOffset`.
/// Namespace prefixes differ between writers (GCamera, Camera), so names are matched after the
/// colon. A candidate is believed only when the bytes there begin an ISO-BMFF `ftyp` box.
/// Samsung's own trailer (SEF, without this XMP) is not read.
public enum MotionPhoto {
    /// Offsets longer than this many decimal digits are not offsets in any real file.
    static let maxDigits = 12

    /// The embedded video's byte range, or nil when the photo has none or its metadata points
    /// nowhere sensible. `head`: the file's first bytes (its metadata segments; 256 KB is plenty),
    /// `fileSize`: the whole file's, `read(offset, count)`: bytes from the file.
    public static func embeddedVideo(head: [UInt8], fileSize: Int,
                                     read: (_ offset: Int, _ count: Int) -> [UInt8]?) -> Range<Int>? {
        guard fileSize > 0, let segments = JPEGSegments(head) else { return nil }
        for segment in segments where segment.kind == .xmp {
            for fromEnd in candidateLengths(xmp: segment.payload.prefix(XMPPacket.maxBytes)) {
                guard fromEnd >= 16, fromEnd < fileSize else { continue }
                let start = fileSize - fromEnd
                if let box = read(start, 8), box.count == 8, Array(box[4..<8]) == Array("ftyp".utf8) {
                    return start..<fileSize
                }
            }
        }
        return nil
    }

    /// The "bytes from the end" values the packet offers, most specific first; none unless the
    /// packet says the photo has motion.
    static func candidateLengths(xmp bytes: ArraySlice<UInt8>) -> [Int] {
        let text = String(decoding: bytes, as: UTF8.self)
        var lengths: [Int] = []
        if value(of: "MotionPhoto", in: text[...]) == "1" {
            // The directory's MotionPhoto item: its element runs from the '<' before the semantic
            // to the next '>'.
            var rest = text[...]
            while let semantic = rest.firstRange(of: "Semantic=\"MotionPhoto\"") {
                let elementStart = rest[..<semantic.lowerBound].lastIndex(of: "<") ?? rest.startIndex
                let elementEnd = rest[semantic.upperBound...].firstIndex(of: ">") ?? rest.endIndex
                if let length = value(of: "Length", in: rest[elementStart..<elementEnd]).flatMap(decimal) {
                    lengths.append(length)
                }
                rest = rest[semantic.upperBound...]
            }
        }
        if value(of: "MicroVideo", in: text[...]) == "1",
           let offset = value(of: "MicroVideoOffset", in: text[...]).flatMap(decimal) {
            lengths.append(offset)
        }
        return lengths
    }

    /// The value of the property whose local name is `name`, written as an attribute
    /// (`prefix:Name="v"`) or as an element (`<prefix:Name>v</prefix:Name>`).
    static func value(of name: String, in text: Substring) -> String? {
        var rest = text
        while let hit = rest.firstRange(of: ":" + name) {
            defer { rest = rest[hit.upperBound...] }
            let after = rest[hit.upperBound...]
            // Only the whole name: not "MotionPhotoVersion" when looking for "MotionPhoto".
            if after.hasPrefix("=\"") {
                let valueStart = after.index(after.startIndex, offsetBy: 2)
                guard let close = after[valueStart...].firstIndex(of: "\"") else { return nil }
                return String(after[valueStart..<close])
            }
            if after.hasPrefix(">") {
                let valueStart = after.index(after: after.startIndex)
                guard let close = after[valueStart...].firstIndex(of: "<") else { return nil }
                return String(after[valueStart..<close]).trimmingWhitespace()
            }
        }
        return nil
    }

    static func decimal(_ text: String) -> Int? {
        let digits = text.trimmingWhitespace()
        guard !digits.isEmpty, digits.utf8.count <= maxDigits, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(digits)
    }
}

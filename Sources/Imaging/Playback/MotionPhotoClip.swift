import Graphics
import SystemAccess
import SystemPackage

/// The video of a Motion Photo (an MP4 appended to a JPEG, `MotionPhoto`), copied into an
/// anonymous file in memory so that `ClipPlayer`, which plays a path, can play it: `path` is that
/// file's /proc/self/fd path. The copy is freed when this object is released; keep it while a
/// player opened on it runs (GStreamer reopens the path as it starts, then reads its own copy of
/// the descriptor). No file is written anywhere: the photo folder may be read-only, and the
/// card should not wear for a long press.
public final class MotionPhotoClip: Sendable {
    /// Longer than any phone's Motion Photo (a few seconds, a few megabytes): refused rather
    /// than copied into memory.
    public static let maxBytes = 64 << 20
    /// How much of the photo's beginning is searched for the XMP packet that marks it.
    static let headBytes = 256 << 10

    /// Where the clip can be opened from (in this process only).
    public let path: RawPath
    /// The clip's container format as `ClipPlayer` wants it (`.mp4Clip`).
    public let format: ImageFormat
    /// Where in the photo file the clip was.
    public let range: Range<Int>
    private let memory: MemoryFile

    /// Copies the embedded video of the Motion Photo at `photo`. Throws `.notAnImage` when the
    /// photo has no video its metadata points to, `.tooLarge` over `maxBytes`, `.io` when it
    /// cannot be read or the memory file cannot be made.
    public init(photo: RawPath) throws(ImagingError) {
        let name = FileReader.lastComponent(of: photo.filePath)
        let (file, size) = try FileReader.openChecked(filePath: photo.filePath, maxBytes: Int.max)
        defer { file.closeQuietly() }
        guard let range = Self.videoRange(in: file, size: size) else {
            throw ImagingError(.notAnImage, "no Motion Photo video in it", fileName: name)
        }
        guard range.count <= Self.maxBytes else {
            throw ImagingError(.tooLarge, "its Motion Photo video is \(range.count) bytes, over \(Self.maxBytes)", fileName: name)
        }
        guard let clipHead = FileReader.bytes(of: file, at: range.lowerBound, count: 64), let format = ClipDecoder.sniff(clipHead) else {
            throw ImagingError(.unsupported, "its Motion Photo video is not an MP4 the player takes", fileName: name)
        }
        do {
            memory = try MemoryFile(name: "motion-photo")
            try memory.append(from: photo.filePath, offset: Int64(range.lowerBound), length: Int64(range.count))
        } catch {
            throw ImagingError(.io, "cannot copy its Motion Photo video into memory (\(error))", fileName: name, systemError: error)
        }
        self.range = range
        self.format = format
        path = RawPath(bytes: Array(memory.path.string.utf8))
    }

    /// Where the Motion Photo at `photo` keeps its video, without copying it (whether a long
    /// press has anything to play); nil for a photo without one or a file that cannot be read.
    /// Reads the photo's first 256 KB and 8 bytes where the video starts.
    public static func videoRange(in photo: RawPath) -> Range<Int>? {
        guard let (file, size) = try? FileReader.openChecked(filePath: photo.filePath, maxBytes: Int.max) else { return nil }
        defer { file.closeQuietly() }
        return videoRange(in: file, size: size)
    }

    private static func videoRange(in file: FileDescriptor, size: Int) -> Range<Int>? {
        func read(_ offset: Int, _ count: Int) -> [UInt8]? { FileReader.bytes(of: file, at: offset, count: count) }
        guard let head = read(0, min(size, headBytes)) else { return nil }
        return MotionPhoto.embeddedVideo(head: head, fileSize: size, read: read)
    }

    /// A player on the clip (see `ClipPlayer.init`); keep this object while it plays.
    public func makePlayer(fitting box: Size, sound: ClipSound? = nil, decoderThreads: Int = 0,
                           frameReady: @escaping @Sendable () -> Void) throws(ImagingError) -> ClipPlayer {
        try ClipPlayer(path: path, format: format, fitting: box, sound: sound, decoderThreads: decoderThreads, frameReady: frameReady)
    }
}

import CGST
import Graphics
#if canImport(Glibc)
import Glibc
#endif

/// Video clips (MP4/QuickTime and Matroska/WebM) as still images: their first frame, the poster,
/// decoded by GStreamer in-process (the `CGST` shim loads it on the first clip), with the clip's
/// duration beside it. Playback is not here yet; a clip shows as its poster.
///
/// GStreamer reads the file itself (a clip may be far larger than a photo), so clips are decoded
/// from a path, never from bytes in memory.
public enum ClipDecoder {
    /// How long a poster may take: a damaged or endless file fails within this, never hangs a
    /// worker. A healthy clip prerolls in well under a second once GStreamer's plugins are in
    /// memory, but the first one after a start maps the decoder's plugin and its libraries (libav
    /// pulls in 177 on Debian 13 arm64) from the SD card: the 512 MB arm64 guest's first poster
    /// took over 5 s (the bound before), so that slow first load is allowed for.
    static let prerollTimeoutMilliseconds: Int32 = 15_000
    /// The box a poster is read in when its final size is only picked once its natural size is
    /// known (a thumbnail's, see `ImageDecoder.decode(path:plan:)`): big enough for any grid
    /// cell, small enough that a 4K clip's frame is scaled down by GStreamer, not copied whole.
    static let planningBox = Size(width: 1920, height: 1920)
    /// What a poster's decode holds while it runs, reserved at the decode memory gate (the size
    /// is only known once GStreamer has read the clip): a 1080p H.264 poster took a small C
    /// program to about 100 MB peak RSS (GStreamer, libav and its frames; a 320x240 VP8 one
    /// 16 MB), so on a small board clips' posters wait for each other and for large photos.
    static let workingBytesEstimate = 64 << 20

    // MARK: Sniff

    /// Brands of ISO-BMFF files that carry video (MP4, QuickTime, 3GPP, DASH segments); HEIF and
    /// AVIF stills are recognised before this is asked (`HEIFDecoder.sniff`).
    static let videoBrands: Set<String> = ["isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9",
                                           "mp41", "mp42", "mp71", "avc1", "M4V ", "M4VH", "M4VP", "qt  ",
                                           "dash", "msdh", "msix", "mmp4", "MSNV", "f4v ", "XAVC"]
    /// Audio-only major brands, whose compatible brands may still name isom.
    static let audioBrands: Set<String> = ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "]

    /// `.mp4Clip` for an `ftyp` box naming a video brand, `.matroskaClip` for an EBML header;
    /// nil for anything else.
    static func sniff(_ head: [UInt8]) -> ImageFormat? {
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .matroskaClip }
        guard head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = min(head.count, max(12, boxSize))
        let major = String(decoding: head[8..<12], as: UTF8.self)
        guard !audioBrands.contains(major) else { return nil }
        var brands = [major]
        for start in stride(from: 16, to: end - 3, by: 4) {
            brands.append(String(decoding: head[start..<(start + 4)], as: UTF8.self))
        }
        let isVideo = brands.contains { videoBrands.contains($0) || $0.hasPrefix("3gp") || $0.hasPrefix("3g2") }
        return isVideo ? .mp4Clip : nil
    }

    // MARK: Decode

    /// The clip's poster frame, aspect-fitted inside `box` (nil: the clip's natural size),
    /// never upscaled; `originalSize` is the clip's size as displayed, and `info.clipDuration`
    /// its length when the container says it.
    static func decode(path: RawPath, format: ImageFormat, fitting box: Size?, options: DecodeOptions,
                       cancellation: DecodeCancellation? = nil, memoryGate: DecodeMemoryGate = .shared)
        throws(ImagingError) -> DecodedImage
    {
        try loadLibrary(for: format)
        try cancellation?.check()
        return try memoryGate.withReservation(workingBytesEstimate) { () throws(ImagingError) in
            try cancellation?.check()
            return try readPoster(path: path, format: format, fitting: box, options: options)
        }
    }

    private static func readPoster(path: RawPath, format: ImageFormat, fitting box: Size?,
                                   options: DecodeOptions) throws(ImagingError) -> DecodedImage
    {
        var poster = cgst_poster()
        var error = [CChar](repeating: 0, count: 512)
        let maxWidth = box.map { Int32(clamping: Int($0.width)) } ?? 0
        let maxHeight = box.map { Int32(clamping: Int($0.height)) } ?? 0
        let read = (path.bytes + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { name in
                cgst_read_poster(name.baseAddress, max(0, maxWidth), max(0, maxHeight), prerollTimeoutMilliseconds,
                                 &poster, &error, error.count)
            }
        }
        guard read, let pixels = poster.pixels else {
            let message = messageLine(error)
            if message.contains("missing a plug-in") {
                throw ImagingError(.unsupported, "cannot decode the \(format): \(message) (H.264 and HEVC need "
                                   + "gstreamer1.0-libav; MP4, Matroska and VP8/VP9 gstreamer1.0-plugins-good)")
            }
            throw ImagingError(.corrupt, "cannot decode the \(format): \(message)")
        }
        defer { free(pixels) }
        let width = Int(poster.width), height = Int(poster.height)
        try PixelLimit.check(width: Int(poster.natural_width), height: Int(poster.natural_height), format: format,
                             options: options)
        let bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            bitmap.row(y).copyMemory(from: pixels + y * Int(poster.stride), byteCount: width * 4)
        }
        var info = ImageInfo(format: format, pixelWidth: Int(poster.natural_width), pixelHeight: Int(poster.natural_height))
        if poster.duration_ns >= 0 { info.clipDuration = .nanoseconds(poster.duration_ns) }
        return DecodedImage(bitmap: bitmap, originalSize: info.orientedSize, isPartial: false, info: info)
    }

    // MARK: The library

    /// GStreamer is loaded on the first clip (see CGST), not at startup.
    static func loadLibrary(for format: ImageFormat) throws(ImagingError) {
        guard let reason = libraryProblem() else { return }
        throw ImagingError(.unsupported, "cannot decode the \(format): GStreamer is not available (\(reason)); "
                           + "install the gstreamer1.0-plugins-good package (it brings libgstreamer1.0-0)")
    }

    /// nil once GStreamer is loaded, else why it cannot be (loads it: `photokiosk doctor` asks).
    public static func libraryProblem() -> String? {
        var error = [CChar](repeating: 0, count: 512)
        guard !cgst_load(&error, error.count) else { return nil }
        return messageLine(error)
    }

    /// Whether GStreamer loads and has the element `factory` ("avdec_h264": a decoder's plugin).
    public static func hasElement(_ factory: String) -> Bool {
        libraryProblem() == nil && cgst_has_element(factory)
    }

    /// A C message buffer as one line (ClipPlayer's messages too).
    static func messageLine(_ buffer: [CChar]) -> String {
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return line.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }
}

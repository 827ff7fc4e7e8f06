import Graphics

/// Reads JPEG, PNG, HEIF/HEIC, AVIF and WebP photos and video clips' first frames (recognised
/// by content, never by name): header probes without decoding, and decodes at a target size,
/// oriented for display, into XRGB8888 bitmaps. Clips are read from their files only (GStreamer
/// opens them itself); given as bytes, they are refused.
///
/// Stateless and thread-safe: each call owns its decoder, so workers may decode in parallel.
/// Nothing here crashes on bad data; every failure is an `ImagingError`.
public enum ImageDecoder {
    /// Bytes read for a header probe from a file; JPEG headers with big EXIF/ICC blocks that do
    /// not fit are retried with the whole file.
    static let probePrefixBytes = 256 << 10

    // MARK: Probe

    /// Size, orientation and format from the header; no pixels are decoded.
    public static func probe(bytes: [UInt8]) throws(ImagingError) -> ImageInfo {
        try probe(bytes: bytes, isPrefix: false)
    }

    /// `isPrefix`: `bytes` are the file's beginning only (see `WebPDecoder.probe`).
    static func probe(bytes: [UInt8], isPrefix: Bool) throws(ImagingError) -> ImageInfo {
        let format = try detect(bytes)
        return try withRawBytes(bytes) { raw throws(ImagingError) in
            switch format {
            case .jpeg: return try JPEGDecoder.probe(raw)
            case .png: return try PNGDecoder.probe(raw)
            case .heif, .avif: return try HEIFDecoder.probe(raw, format: format)
            case .webp: return try WebPDecoder.probe(raw, isPrefix: isPrefix)
            case .mp4Clip, .matroskaClip: throw clipFromMemory(format)
            }
        }
    }

    /// Probes the file at `path`, reading only its beginning when that is enough.
    public static func probe(path: String, options: DecodeOptions = .default) throws(ImagingError) -> ImageInfo {
        try probe(path: RawPath(path), options: options)
    }

    /// The same for a path kept as raw bytes (file names need not be UTF-8).
    public static func probe(path: RawPath, options: DecodeOptions = .default) throws(ImagingError) -> ImageInfo {
        do throws(ImagingError) {
            // Read without the byte limit, which a clip (never read into memory) is not held to.
            let head = try FileReader.read(path: path, maxBytes: .max, prefix: probePrefixBytes)
            if let format = ImageFormat.sniff(head), format.isClip {
                // No header parser of ours: the smallest poster GStreamer makes tells the size.
                return try ClipDecoder.decode(path: path, format: format, fitting: Size(width: 1, height: 1),
                                              options: options).info
            }
            try FileReader.checkSize(path: path, maxBytes: options.maxFileBytes)
            do throws(ImagingError) {
                return try probe(bytes: head, isPrefix: head.count == probePrefixBytes)
            } catch where error.kind == .truncated && head.count == probePrefixBytes {
                return try probe(bytes: FileReader.read(path: path, maxBytes: options.maxFileBytes))
            }
        } catch {
            throw error.attributed(to: path.description)
        }
    }

    // MARK: Decode

    /// Decodes `bytes`, aspect-fitted inside `box` (display pixels; nil = full size).
    ///
    /// JPEGs decode at the smallest DCT scale that still covers the target, WebP through
    /// libwebp's scaler, HEIF/AVIF from an embedded thumbnail that covers the target or else
    /// whole; then pixman resizes to the exact size. The result is oriented (EXIF) and never upscaled unless
    /// `options.allowsUpscaling`.
    ///
    /// `cancellation` stops the decode early (checked every few rows) with a `.cancelled` error.
    /// Decodes needing large working buffers (progressive JPEGs) wait their turn at `memoryGate`.
    public static func decode(bytes: [UInt8], fitting box: Size? = nil, options: DecodeOptions = .default,
                              cancellation: DecodeCancellation? = nil,
                              memoryGate: DecodeMemoryGate = .shared) throws(ImagingError) -> DecodedImage
    {
        let format = try detect(bytes)
        return try withRawBytes(bytes) { raw throws(ImagingError) in
            switch format {
            case .jpeg: return try JPEGDecoder.decode(raw, fitting: box, options: options, cancellation: cancellation,
                                                      memoryGate: memoryGate)
            case .png: return try PNGDecoder.decode(raw, fitting: box, options: options, cancellation: cancellation)
            case .heif, .avif:
                return try HEIFDecoder.decode(raw, format: format, fitting: box, options: options, cancellation: cancellation,
                                              memoryGate: memoryGate)
            case .webp: return try WebPDecoder.decode(raw, fitting: box, options: options, cancellation: cancellation)
            case .mp4Clip, .matroskaClip: throw clipFromMemory(format)
            }
        }
    }

    /// Reads and decodes the file at `path`; errors name the file.
    public static func decode(path: String, fitting box: Size? = nil, options: DecodeOptions = .default,
                              cancellation: DecodeCancellation? = nil) throws(ImagingError) -> DecodedImage
    {
        try decode(path: RawPath(path), fitting: box, options: options, cancellation: cancellation)
    }

    /// The same for a path kept as raw bytes. JPEGs stream from the open file (libjpeg reads a
    /// few kilobytes at a time), so the compressed data is never in memory whole; clips are read
    /// by GStreamer from their path; other formats are read whole first.
    public static func decode(path: RawPath, fitting box: Size? = nil, options: DecodeOptions = .default,
                              cancellation: DecodeCancellation? = nil,
                              memoryGate: DecodeMemoryGate = .shared) throws(ImagingError) -> DecodedImage
    {
        do throws(ImagingError) {
            let (stream, format) = try open(path, options: options, cancellation: cancellation)
            if format == .jpeg {
                return try JPEGDecoder.decode(.file(stream), options: options, cancellation: cancellation,
                                              memoryGate: memoryGate) { _ in .fit(box) }
            }
            if format.isClip {
                return try ClipDecoder.decode(path: path, format: format, fitting: box, options: options,
                                              cancellation: cancellation, memoryGate: memoryGate)
            }
            return try decode(bytes: stream.readAll(maxBytes: options.maxFileBytes), fitting: box, options: options,
                              cancellation: cancellation, memoryGate: memoryGate)
        } catch {
            throw error.attributed(to: path.description)
        }
    }

    /// Decodes the file at `path` at a size `plan` picks from its header (or not at all, when
    /// `plan` finishes with an image of its own, such as the EXIF thumbnail). The file is opened
    /// once: a JPEG's header is parsed once, by the decoder that goes on to read the pixels;
    /// other formats are read whole once and their header probed from those bytes.
    public static func decode(path: RawPath, options: DecodeOptions = .default, cancellation: DecodeCancellation? = nil,
                              memoryGate: DecodeMemoryGate = .shared,
                              plan: (ImageInfo) throws(ImagingError) -> DecodePlan) throws(ImagingError) -> DecodedImage
    {
        do throws(ImagingError) {
            let (stream, format) = try open(path, options: options, cancellation: cancellation)
            if format == .jpeg {
                return try JPEGDecoder.decode(.file(stream), options: options, cancellation: cancellation,
                                              memoryGate: memoryGate, plan: plan)
            }
            if format.isClip { return try decodeClip(path: path, format: format, options: options,
                                                                 cancellation: cancellation, memoryGate: memoryGate, plan: plan) }
            let bytes = try stream.readAll(maxBytes: options.maxFileBytes)
            switch try plan(probe(bytes: bytes)) {
            case .finished(let decoded): return decoded
            case .fit(let box):
                return try decode(bytes: bytes, fitting: box, options: options, cancellation: cancellation,
                                  memoryGate: memoryGate)
            }
        } catch {
            throw error.attributed(to: path.description)
        }
    }

    /// The file opened for a decode, and its format (a JPEG streams from it; a clip is handed to
    /// GStreamer by its path). The byte limit is for what is read into memory, so a clip is not
    /// held to it.
    private static func open(_ path: RawPath, options: DecodeOptions,
                             cancellation: DecodeCancellation?) throws(ImagingError) -> (PhotoFileStream, ImageFormat) {
        try cancellation?.check()
        let stream = try PhotoFileStream(path: path, maxBytes: .max)
        let format = try detect(stream.head(HEIFDecoder.sniffBytes))
        if !format.isClip { try stream.checkSize(maxBytes: options.maxFileBytes) }
        return (stream, format)
    }

    /// A clip's poster at the size `plan` picks from its natural size: read once inside
    /// `ClipDecoder.planningBox`, then resized here (a second preroll would cost more).
    private static func decodeClip(path: RawPath, format: ImageFormat, options: DecodeOptions,
                                   cancellation: DecodeCancellation?, memoryGate: DecodeMemoryGate,
                                   plan: (ImageInfo) throws(ImagingError) -> DecodePlan) throws(ImagingError) -> DecodedImage
    {
        var poster = try ClipDecoder.decode(path: path, format: format, fitting: ClipDecoder.planningBox, options: options,
                                            cancellation: cancellation, memoryGate: memoryGate)
        switch try plan(poster.info) {
        case .finished(let decoded): return decoded
        case .fit(let box):
            guard let box else {
                return try ClipDecoder.decode(path: path, format: format, fitting: nil, options: options, memoryGate: memoryGate)
            }
            let target = fittedSize(of: poster.originalSize, in: box, allowsUpscaling: options.allowsUpscaling)
            if target != (poster.bitmap.width, poster.bitmap.height) {
                poster.bitmap = Resampler.resize(poster.bitmap, width: target.width, height: target.height)
            }
            return poster
        }
    }

    private static func clipFromMemory(_ format: ImageFormat) -> ImagingError {
        ImagingError(.unsupported, "a \(format) is decoded from its file, not from bytes in memory")
    }

    /// Decodes the EXIF thumbnail embedded in a JPEG (typically 160x120) with the main image's
    /// orientation applied: a fast first paint for grids. Nil when `info` has no thumbnail.
    /// `originalSize` of the result is the main image's oriented size.
    public static func decodeEmbeddedThumbnail(of info: ImageInfo, fitting box: Size? = nil,
                                               options: DecodeOptions = .default) throws(ImagingError) -> DecodedImage?
    {
        guard let thumbnail = info.exif?.thumbnail else { return nil }
        var decoded = try decode(bytes: thumbnail, fitting: nil, options: options)
        // The thumbnail carries no EXIF of its own; it is stored like the main image.
        var bitmap = info.orientation.apply(to: decoded.bitmap)
        if let box {
            let target = fittedSize(of: bitmap.size, in: box, allowsUpscaling: options.allowsUpscaling)
            if target != (bitmap.width, bitmap.height) {
                bitmap = Resampler.resize(bitmap, width: target.width, height: target.height)
            }
        }
        decoded.bitmap = bitmap
        decoded.originalSize = info.orientedSize
        return decoded
    }

    // MARK: Helpers

    static func detect(_ bytes: [UInt8]) throws(ImagingError) -> ImageFormat {
        if bytes.isEmpty { throw ImagingError(.notAnImage, "empty file (0 bytes)") }
        if let format = ImageFormat.sniff(bytes.prefix(HEIFDecoder.sniffBytes)) { return format }
        let head = bytes.prefix(64)
        if head.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) }) {
            throw ImagingError(.notAnImage, "text, not \(ImageFormat.supportedList)")
        }
        let hex = bytes.prefix(4).map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined(separator: " ")
        throw ImagingError(.notAnImage, "not \(ImageFormat.supportedList) (starts with \(hex))")
    }

    /// Runs `body` over the array's bytes with typed throws preserved.
    static func withRawBytes<T>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(ImagingError) -> T)
        throws(ImagingError) -> T
    {
        let result: Result<T, ImagingError> = bytes.withUnsafeBytes { raw in
            do throws(ImagingError) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

import CLibWebP
import Graphics

/// WebP (lossy, lossless, with alpha; animations show their first frame) through libwebp.
///
/// Stills decode straight into the bitmap at the target size with libwebp's own scaler, in
/// premultiplied B G R A: transparency composited over black, like `PNGDecoder`. The input is
/// fed to the incremental decoder in steps, so a cancelled decode stops between steps and a
/// truncated file keeps the rows it has (like a truncated JPEG). WebP has no transformation
/// boxes: an EXIF chunk's orientation is applied like a JPEG's.
enum WebPDecoder {
    /// Input handed to the incremental decoder at once; cancellation is checked between steps.
    static let stepBytes = 1 << 20

    /// A probe of the file's beginning (`isPrefix`) throws `.truncated` when the EXIF chunk,
    /// stored after the image data, lies beyond it: `ImageDecoder.probe(path:)` then reads the
    /// whole file rather than report an EXIF-rotated photo unrotated.
    static func probe(_ bytes: UnsafeRawBufferPointer, isPrefix: Bool = false) throws(ImagingError) -> ImageInfo {
        let header = try header(bytes)
        if isPrefix && !header.exifComplete { throw ImagingError(.truncated, "WebP data ends before its EXIF chunk") }
        return header.info
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, fitting box: Size?, options: DecodeOptions,
                       cancellation: DecodeCancellation? = nil) throws(ImagingError) -> DecodedImage
    {
        let (info, isAnimated, _) = try header(bytes)
        try PixelLimit.check(width: info.pixelWidth, height: info.pixelHeight, format: .webp, options: options)
        let target = box.map { ImageDecoder.fittedSize(of: info.orientedSize, in: $0, allowsUpscaling: options.allowsUpscaling) }
        let storedTarget = target.map { info.orientation.swapsDimensions ? ($0.height, $0.width) : ($0.width, $0.height) }
        try cancellation?.check()

        var stored: Bitmap
        var partial: (rows: Int, warning: String)?
        if isAnimated {
            stored = try firstFrame(bytes, canvas: (info.pixelWidth, info.pixelHeight))
            if let storedTarget, storedTarget != (stored.width, stored.height) {
                stored = Resampler.resize(stored, width: storedTarget.0, height: storedTarget.1)
            }
        } else {
            let size = storedTarget ?? (info.pixelWidth, info.pixelHeight)
            stored = Bitmap(width: size.0, height: size.1)
            partial = try decodeStill(bytes, into: stored, scaled: storedTarget != nil, options: options,
                                      cancellation: cancellation)
        }
        if info.hasAlpha { setOpaque(stored) }
        return DecodedImage(bitmap: info.orientation.apply(to: stored), originalSize: info.orientedSize,
                            isPartial: partial != nil, warning: partial?.warning, info: info)
    }

    // MARK: Header

    private static func header(_ bytes: UnsafeRawBufferPointer) throws(ImagingError)
        -> (info: ImageInfo, isAnimated: Bool, exifComplete: Bool)
    {
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        try check(status, "reading the header")
        guard features.width > 0, features.height > 0 else {
            throw ImagingError(.corrupt, "corrupt WebP: the header gives no size (\(features.width)x\(features.height))")
        }
        let (exif, exifComplete) = self.exif(bytes)
        let info = ImageInfo(format: .webp, pixelWidth: Int(features.width), pixelHeight: Int(features.height),
                             orientation: exif?.orientation ?? .up, hasAlpha: features.has_alpha != 0, exif: exif)
        return (info, features.has_animation != 0, exifComplete)
    }

    /// The EXIF chunk (TIFF data, sometimes after "Exif\0\0"), and whether that answer is
    /// final: false when the header announces EXIF but `bytes` end before the chunk (a probe
    /// of the file's beginning, or a truncated file, which then decodes unrotated).
    private static func exif(_ bytes: UnsafeRawBufferPointer) -> (exif: ExifData?, complete: Bool) {
        var data = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        var state = WEBP_DEMUX_PARSING_HEADER
        guard let demuxer = WebPDemuxPartial(&data, &state) else { return (nil, true) }
        defer { WebPDemuxDelete(demuxer) }
        guard WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & EXIF_FLAG.rawValue != 0 else { return (nil, true) }
        var chunk = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "EXIF", 1, &chunk) != 0 else { return (nil, state == WEBP_DEMUX_DONE) }
        defer { WebPDemuxReleaseChunkIterator(&chunk) }
        guard let start = chunk.chunk.bytes, chunk.chunk.size > 0 else { return (nil, true) }
        return (ExifData.parse(UnsafeBufferPointer(start: start, count: chunk.chunk.size)), true)
    }

    // MARK: Pixels

    /// Decodes a still into `bitmap` (scaled to its size when `scaled`). Returns the rows kept
    /// and a warning when the data ends early after some rows (not in strict mode).
    private static func decodeStill(_ bytes: UnsafeRawBufferPointer, into bitmap: Bitmap, scaled: Bool, options: DecodeOptions,
                                    cancellation: DecodeCancellation?) throws(ImagingError) -> (rows: Int, warning: String)?
    {
        // libwebp keeps pointers into the config while the incremental decoder lives.
        let config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
        defer { config.deallocate() }
        guard WebPInitDecoderConfig(config) != 0 else { throw ImagingError(.internalFailure, "libwebp version mismatch") }
        config.pointee.options.use_scaling = scaled ? 1 : 0
        config.pointee.options.scaled_width = Int32(bitmap.width)
        config.pointee.options.scaled_height = Int32(bitmap.height)
        config.pointee.output.colorspace = MODE_bgrA
        config.pointee.output.is_external_memory = 1
        config.pointee.output.u.RGBA.rgba = bitmap.pixels.assumingMemoryBound(to: UInt8.self)
        config.pointee.output.u.RGBA.stride = Int32(bitmap.stride)
        config.pointee.output.u.RGBA.size = bitmap.byteCount
        guard let decoder = WebPIDecode(nil, 0, config) else {
            throw ImagingError(.internalFailure, "out of memory creating a WebP decoder")
        }
        defer { WebPIDelete(decoder) }

        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var fed = 0
        var status = VP8_STATUS_SUSPENDED
        while status == VP8_STATUS_SUSPENDED && fed < bytes.count {
            try cancellation?.check()
            fed = min(bytes.count, fed + stepBytes)
            status = WebPIUpdate(decoder, base, fed)
        }
        if status == VP8_STATUS_OK { return nil }
        guard status == VP8_STATUS_SUSPENDED else { try check(status, "decoding"); return nil }
        // All the data is in and the image is not finished.
        var lastRow: Int32 = 0
        _ = WebPIDecGetRGB(decoder, &lastRow, nil, nil, nil)
        let rows = Int(max(0, min(lastRow, Int32(bitmap.height))))
        guard rows > 0, !options.strict else {
            throw ImagingError(.truncated, "WebP data ends early (after \(rows) of \(bitmap.height) rows)")
        }
        for y in rows..<bitmap.height {
            bitmap.row(y).initializeMemory(as: UInt8.self, repeating: 0, count: bitmap.width * 4)
        }
        return (rows, "WebP data ends early after \(rows) of \(bitmap.height) rows")
    }

    /// An animation's first frame on its canvas (frames may be smaller than the canvas).
    private static func firstFrame(_ bytes: UnsafeRawBufferPointer, canvas: (Int, Int)) throws(ImagingError) -> Bitmap {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw ImagingError(.internalFailure, "libwebp version mismatch") }
        options.color_mode = MODE_bgrA
        var data = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            throw ImagingError(.corrupt, "corrupt WebP animation (its frames cannot be read)")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var animation = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &animation) != 0,
              Int(animation.canvas_width) == canvas.0, Int(animation.canvas_height) == canvas.1 else {
            throw ImagingError(.corrupt, "corrupt WebP animation (its canvas disagrees with the header)")
        }
        var pixels: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
            throw ImagingError(.corrupt, "corrupt WebP animation (its first frame cannot be decoded)")
        }
        let bitmap = Bitmap(width: canvas.0, height: canvas.1)
        for y in 0..<canvas.1 {
            bitmap.row(y).copyMemory(from: pixels + y * canvas.0 * 4, byteCount: canvas.0 * 4)
        }
        return bitmap
    }

    /// Premultiplied B G R A → B G R X with X = 0xFF, as every other decoder leaves it.
    private static func setOpaque(_ bitmap: Bitmap) {
        for y in 0..<bitmap.height {
            let row = bitmap.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<bitmap.width { row[x * 4 + 3] = 0xFF }
        }
    }

    private static func check(_ status: VP8StatusCode, _ doing: String) throws(ImagingError) {
        switch status {
        case VP8_STATUS_OK: return
        case VP8_STATUS_NOT_ENOUGH_DATA, VP8_STATUS_SUSPENDED:
            throw ImagingError(.truncated, "WebP data ends early (\(doing))")
        case VP8_STATUS_UNSUPPORTED_FEATURE: throw ImagingError(.unsupported, "unsupported WebP feature (\(doing))")
        case VP8_STATUS_OUT_OF_MEMORY: throw ImagingError(.internalFailure, "out of memory decoding WebP")
        case VP8_STATUS_INVALID_PARAM: throw ImagingError(.internalFailure, "WebP decoder misuse (\(doing))")
        default: throw ImagingError(.corrupt, "corrupt WebP (bitstream error \(doing))")
        }
    }
}

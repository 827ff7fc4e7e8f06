import CHEIF
import CLibHeif
import Graphics

/// HEIF/HEIC (HEVC) and AVIF (AV1) stills through libheif.
///
/// libheif applies the primary image's `irot`/`imir`/`clap` transformations itself, so the sizes
/// reported here are already the displayed ones and `ImageInfo.orientation` is `.up`. The EXIF
/// orientation tag inside a HEIF is informative only (ISO/IEC 23008-12: the transformation
/// properties are normative; phones write both) and is not applied a second time.
///
/// HEVC and AV1 have no reduced-size decode, so a smaller target uses the file's own thumbnail
/// image when it covers the target with the photo's shape (phones store one of about 320 px),
/// and otherwise the full image is decoded, converted in libheif's buffer and resized.
public enum HEIFDecoder {
    /// Enough of the file for its `ftyp` box and brands.
    static let sniffBytes = 128
    /// EXIF blocks larger than this are ignored (camera EXIF is a few tens of kilobytes).
    static let maxExifBytes = 1 << 20

    // MARK: Sniff

    /// `.heif` or `.avif` when `head` starts with an ISO-BMFF `ftyp` box naming a HEIF image
    /// brand; nil for anything else (MP4 and QuickTime videos have their own brands).
    static func sniff(_ head: [UInt8]) -> ImageFormat? {
        guard head.count >= 16, head[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = min(head.count, max(16, boxSize))
        var brands = [String(decoding: head[8..<12], as: UTF8.self)]
        for start in stride(from: 16, to: end - 3, by: 4) {
            brands.append(String(decoding: head[start..<(start + 4)], as: UTF8.self))
        }
        let avif: Set = ["avif", "avis"], hevc: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
        let still: Set = ["mif1", "msf1", "mif2"]
        guard brands.contains(where: { avif.contains($0) || hevc.contains($0) || still.contains($0) }) else { return nil }
        if avif.contains(brands[0]) || (brands.contains(where: avif.contains) && !brands.contains(where: hevc.contains)) {
            return .avif
        }
        return .heif
    }

    // MARK: Probe and decode

    static func probe(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(ImagingError) -> ImageInfo {
        let file = try File(bytes, format: format)
        return try file.primaryImage().info(format: format)
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, format: ImageFormat, fitting box: Size?, options: DecodeOptions,
                       cancellation: DecodeCancellation? = nil, memoryGate: DecodeMemoryGate = .shared)
        throws(ImagingError) -> DecodedImage
    {
        let file = try File(bytes, format: format)
        let primary = try file.primaryImage()
        let info = try primary.info(format: format)
        try PixelLimit.check(width: info.pixelWidth, height: info.pixelHeight, format: format, options: options)
        let target = box.map { ImageDecoder.fittedSize(of: info.orientedSize, in: $0, allowsUpscaling: options.allowsUpscaling) }
        try cancellation?.check()

        let source = target.flatMap { primary.thumbnail(covering: $0, shape: info.orientedSize) } ?? primary
        // libheif holds the coded planes (up to 3 bytes a pixel at 4:4:4) and its RGBA image
        // (4) at once; large decodes wait for room like progressive JPEGs.
        let workingBytes = source.width.multipliedReportingOverflow(by: source.height * 7).partialValue
        let bitmap = try memoryGate.withReservation(workingBytes) { () throws(ImagingError) -> Bitmap in
            let image = try source.decode(options: options)
            try cancellation?.check()
            return try image.bitmap(resizedTo: target, options: options, format: format)
        }
        return DecodedImage(bitmap: bitmap, originalSize: info.orientedSize, isPartial: false, info: info)
    }

    /// The primary image's rows for the pyramid builder (`photokiosk tiles`). HEVC and AV1
    /// cannot be decoded in bands, so libheif decodes it whole, but rows are converted a band
    /// at a time from libheif's buffer into the builder's: no second full-size bitmap.
    static func rows(path: String, options: DecodeOptions) throws(ImagingError) -> Rows {
        try rows(path: RawPath(path), options: options)
    }

    static func rows(path: RawPath, options: DecodeOptions) throws(ImagingError) -> Rows {
        do throws(ImagingError) {
            let bytes = try FileReader.read(path: path, maxBytes: options.maxFileBytes)
            let format = try ImageDecoder.detect(bytes)
            guard format == .heif || format == .avif else { throw ImagingError(.internalFailure, "not a HEIF file: \(format)") }
            let image = try ImageDecoder.withRawBytes(bytes) { raw throws(ImagingError) -> Image in
                let primary = try File(raw, format: format).primaryImage()
                let info = try primary.info(format: format)
                try PixelLimit.check(width: info.pixelWidth, height: info.pixelHeight, format: format, options: options)
                return try primary.decode(options: options)  // owns its pixels; the file may go
            }
            return try Rows(image, format: format, options: options)
        } catch {
            throw error.attributed(to: path.description)
        }
    }

    struct Rows: RowSource {
        fileprivate let image: Image
        let width: Int
        let height: Int
        private let plane: UnsafeMutableRawPointer
        private let stride: Int
        private var next = 0

        fileprivate init(_ image: Image, format: ImageFormat, options: DecodeOptions) throws(ImagingError) {
            self.image = image
            (plane, stride, width, height) = try image.plane(format: format, options: options)
        }

        mutating func readRows(into band: Bitmap) throws(ImagingError) -> Int {
            let count = min(band.height, height - next)
            guard count > 0 else { return 0 }
            RGBAConversion.convert(from: plane + next * stride, sourceStride: stride, to: band.pixels, destinationStride: band.stride,
                                   width: width, height: count, hasAlpha: image.hasAlpha)
            next += count
            return count
        }
    }

    // MARK: libheif objects

    /// libheif is loaded on the first HEIF or AVIF file (see CHEIF), not at startup.
    static func loadLibrary(for format: ImageFormat) throws(ImagingError) {
        guard let reason = libraryProblem() else { return }
        throw ImagingError(.unsupported, "cannot decode \(format): libheif is not available (\(reason)); install the libheif1 package")
    }

    /// nil once libheif is loaded, else why it cannot be (loads it: `photokiosk doctor` asks).
    public static func libraryProblem() -> String? {
        var error = [CChar](repeating: 0, count: 512)
        guard !cheif_load(&error, error.count) else { return nil }
        return String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A parsed file; `bytes` must outlive it (libheif reads them in place).
    private final class File {
        let context: OpaquePointer
        let format: ImageFormat

        init(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(ImagingError) {
            try HEIFDecoder.loadLibrary(for: format)
            guard let context = cheif_context_alloc() else {
                throw ImagingError(.internalFailure, "out of memory creating a \(format) decoder")
            }
            self.context = context
            self.format = format
            // libheif's own guard (32768 pixels a side by default) stays: it is per side, not a
            // pixel count, and covers grid tiles; the count is checked from the header below.
            try HEIFDecoder.check(cheif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil),
                                  format: format)
        }

        deinit { cheif_context_free(context) }

        func primaryImage() throws(ImagingError) -> Handle {
            var handle: OpaquePointer?
            try HEIFDecoder.check(cheif_context_get_primary_image_handle(context, &handle), format: format)
            guard let handle else { throw ImagingError(.corrupt, "corrupt \(format): the file has no primary image") }
            return Handle(handle, format: format)
        }
    }

    /// One image item (the primary image or a thumbnail), sizes as displayed.
    private final class Handle {
        let handle: OpaquePointer
        let format: ImageFormat

        init(_ handle: OpaquePointer, format: ImageFormat) {
            self.handle = handle
            self.format = format
        }

        deinit { cheif_image_handle_release(handle) }

        var width: Int { Int(cheif_image_handle_get_width(handle)) }
        var height: Int { Int(cheif_image_handle_get_height(handle)) }
        var hasAlpha: Bool { cheif_image_handle_has_alpha_channel(handle) != 0 }

        func info(format: ImageFormat) throws(ImagingError) -> ImageInfo {
            guard width > 0, height > 0 else {
                throw ImagingError(.corrupt, "corrupt \(format): the primary image has no size (\(width)x\(height))")
            }
            var exif = self.exif()
            // The EXIF thumbnail is stored untransformed and EXIF orientation is not ours to
            // apply (see the type's comment); HEIF thumbnails are used instead.
            exif?.thumbnail = nil
            return ImageInfo(format: format, pixelWidth: width, pixelHeight: height, orientation: .up,
                             bitsPerComponent: max(8, Int(cheif_image_handle_get_luma_bits_per_pixel(handle))),
                             hasAlpha: hasAlpha, exif: exif)
        }

        /// The EXIF block: a 4-byte big-endian offset to the TIFF header, then the TIFF data
        /// (usually after "Exif\0\0", which `ExifData.parse` skips too).
        func exif() -> ExifData? {
            var id: heif_item_id = 0
            guard cheif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1 else { return nil }
            let size = cheif_image_handle_get_metadata_size(handle, id)
            guard size > 4, size <= HEIFDecoder.maxExifBytes else { return nil }
            var block = [UInt8](repeating: 0, count: size)
            guard cheif_image_handle_get_metadata(handle, id, &block).code == heif_error_Ok else { return nil }
            let offset = Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3])
            guard offset < size - 4 else { return nil }
            return ExifData.parse(block[(4 + offset)...])
        }

        /// The smallest thumbnail image that covers `target` and has the photo's shape.
        func thumbnail(covering target: (width: Int, height: Int), shape: Size) -> Handle? {
            let count = Int(cheif_image_handle_get_number_of_thumbnails(handle))
            guard count > 0, !shape.isEmpty else { return nil }
            var ids = [heif_item_id](repeating: 0, count: count)
            let listed = Int(cheif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count)))
            var best: Handle?
            for id in ids.prefix(listed) {
                var thumb: OpaquePointer?
                guard cheif_image_handle_get_thumbnail(handle, id, &thumb).code == heif_error_Ok, let thumb else { continue }
                let candidate = Handle(thumb, format: format)
                let w = candidate.width, h = candidate.height
                guard w >= target.width, h >= target.height, h > 0,
                      abs(Double(w) / Double(h) - shape.width / shape.height) < 0.02 else { continue }
                if best.map({ w * h < $0.width * $0.height }) ?? true { best = candidate }
            }
            return best
        }

        /// Decodes with the transformations applied, to 8-bit interleaved RGBA.
        func decode(options: DecodeOptions) throws(ImagingError) -> Image {
            guard let decoding = cheif_decoding_options_alloc() else {
                throw ImagingError(.internalFailure, "out of memory decoding \(format)")
            }
            defer { cheif_decoding_options_free(decoding) }
            decoding.pointee.convert_hdr_to_8bit = 1
            decoding.pointee.strict_decoding = options.strict ? 1 : 0
            var image: OpaquePointer?
            try HEIFDecoder.check(cheif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, decoding),
                                  format: format)
            guard let image else { throw ImagingError(.internalFailure, "libheif returned no \(format) image") }
            return Image(image, hasAlpha: hasAlpha)
        }
    }

    /// A decoded RGBA image owned by libheif.
    fileprivate final class Image {
        let image: OpaquePointer
        let hasAlpha: Bool

        init(_ image: OpaquePointer, hasAlpha: Bool) {
            self.image = image
            self.hasAlpha = hasAlpha
        }

        deinit { cheif_image_release(image) }

        /// XRGB pixels at `target` (nil: as decoded). A resize converts libheif's buffer in
        /// place and reads it from there, so no second full-size bitmap is made.
        func bitmap(resizedTo target: (width: Int, height: Int)?, options: DecodeOptions,
                    format: ImageFormat) throws(ImagingError) -> Bitmap {
            let (plane, stride, width, height) = try self.plane(format: format, options: options)
            if let target, target != (width, height) {
                RGBAConversion.convert(from: plane, sourceStride: stride, to: plane, destinationStride: stride,
                                       width: width, height: height, hasAlpha: hasAlpha)
                let decoded = Bitmap(wrapping: plane, width: width, height: height, stride: stride)
                return Resampler.resize(decoded, width: target.width, height: target.height)
            }
            let bitmap = Bitmap(width: width, height: height)
            RGBAConversion.convert(from: plane, sourceStride: stride, to: bitmap.pixels, destinationStride: bitmap.stride,
                                   width: width, height: height, hasAlpha: hasAlpha)
            return bitmap
        }

        /// The RGBA pixels as decoded (size checked against the limit again: the coded size
        /// is what was allocated, whatever the header said).
        func plane(format: ImageFormat, options: DecodeOptions) throws(ImagingError)
            -> (pixels: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int)
        {
            let width = Int(cheif_image_get_width(image, heif_channel_interleaved))
            let height = Int(cheif_image_get_height(image, heif_channel_interleaved))
            var stride: Int32 = 0
            guard width > 0, height > 0, let plane = cheif_image_get_plane(image, heif_channel_interleaved, &stride) else {
                throw ImagingError(.corrupt, "corrupt \(format): the decoded image has no pixels")
            }
            try PixelLimit.check(width: width, height: height, format: format, options: options)
            return (UnsafeMutableRawPointer(plane), Int(stride), width, height)
        }
    }

    // MARK: Errors

    static func check(_ error: heif_error, format: ImageFormat) throws(ImagingError) {
        guard error.code != heif_error_Ok else { return }
        // libheif ends some messages with a newline; a log line is one line.
        let text = String((error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)")
            .split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ").drop { $0 == " " })
        if error.subcode == heif_suberror_Security_limit_exceeded {
            throw ImagingError(.tooLarge, "\(format) is larger than the pixel limit (\(text))")
        }
        switch error.code {
        case heif_error_Invalid_input where error.subcode == heif_suberror_End_of_data:
            throw ImagingError(.truncated, "\(format) data ends early (\(text))")
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature:
            throw ImagingError(.unsupported, "unsupported \(format): \(text)")
        case heif_error_Memory_allocation_error:
            throw ImagingError(.internalFailure, "out of memory decoding \(format): \(text)")
        case heif_error_Usage_error:
            throw ImagingError(.internalFailure, "\(format) decoder misuse: \(text)")
        default:
            throw ImagingError(.corrupt, "corrupt \(format): \(text)")
        }
    }
}

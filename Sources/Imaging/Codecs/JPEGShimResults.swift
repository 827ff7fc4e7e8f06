import CJPEG

/// What the CJPEG shim reports, in Swift terms: one mapping for the whole-image decoder
/// (`JPEGDecoder`) and the band reader (`JPEGBandReader`), which read the same headers and get
/// the same status codes.
enum JPEGShimResults {
    /// Throws the error a non-OK status stands for, with the decoder's message.
    static func check(_ status: cjpeg_status, _ handle: OpaquePointer) throws(ImagingError) {
        guard status != CJPEG_OK else { return }
        let text = String(cString: cjpeg_decoder_message(handle))
        switch status {
        case CJPEG_TRUNCATED: throw ImagingError(.truncated, "JPEG data ends early (\(text))")
        case CJPEG_UNSUPPORTED: throw ImagingError(.unsupported, "unsupported JPEG: \(text)")
        case CJPEG_NO_MEMORY: throw ImagingError(.internalFailure, "out of memory decoding JPEG: \(text)")
        case CJPEG_CANCELLED: throw ImagingError(.cancelled, "decoding cancelled")
        case CJPEG_BAD_CALL: throw ImagingError(.internalFailure, "JPEG decoder misuse: \(text)")
        default: throw ImagingError(.corrupt, "corrupt JPEG: \(text)")
        }
    }

    /// The image a header describes, its EXIF parsed (the header's EXIF bytes belong to the
    /// decoder: parse before it goes).
    static func info(_ header: cjpeg_header) -> ImageInfo {
        var exif: ExifData?
        if let start = header.exif, header.exif_length > 0 {
            exif = ExifData.parse(UnsafeBufferPointer(start: start, count: header.exif_length))
        }
        return ImageInfo(format: .jpeg, pixelWidth: Int(header.width), pixelHeight: Int(header.height),
                         orientation: exif?.orientation ?? .up, isProgressive: header.progressive != 0,
                         colorSpace: colorSpace(header.color_space), bitsPerComponent: Int(header.precision),
                         hasAlpha: false, isArithmeticCoded: header.arithmetic != 0, exif: exif)
    }

    private static func colorSpace(_ space: J_COLOR_SPACE) -> ImageColorSpace {
        switch space {
        case JCS_GRAYSCALE: return .grayscale
        case JCS_CMYK: return .cmyk
        case JCS_YCCK: return .ycck
        default: return .rgb
        }
    }
}

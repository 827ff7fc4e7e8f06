import CPNG
import Graphics

/// PNG probing and decoding through libpng (the CPNG shim catches its longjmps).
///
/// Transparency: pixels are composited over black (each colour channel multiplied by alpha),
/// and the result is an opaque XRGB bitmap like every other decoded photo. That is exactly the
/// colour part of premultiplied ARGB, so it matches what drawing the image over the viewer's
/// black background would show; the alpha itself is not kept. No gamma correction is applied.
enum PNGDecoder {
    static func probe(_ bytes: UnsafeRawBufferPointer) throws(ImagingError) -> ImageInfo {
        try Reader(bytes).readHeader()
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, fitting box: Size?, options: DecodeOptions,
                       cancellation: DecodeCancellation? = nil) throws(ImagingError) -> DecodedImage
    {
        let reader = try Reader(bytes)
        if let cancellation { reader.stop(when: cancellation) }
        let info = try reader.readHeader()
        try PixelLimit.check(width: info.pixelWidth, height: info.pixelHeight, format: .png, options: options)
        try cancellation?.check()
        let bitmap = Bitmap(width: info.pixelWidth, height: info.pixelHeight, format: .xrgb8888)
        let outcome = try withExtendedLifetime(cancellation) { () throws(ImagingError) in
            try reader.decode(into: bitmap, strict: options.strict)
        }
        if info.hasAlpha { compositeOverBlack(bitmap) }

        var result = bitmap
        if let box {
            let target = ImageDecoder.fittedSize(of: info.orientedSize, in: box, allowsUpscaling: options.allowsUpscaling)
            if target != (bitmap.width, bitmap.height) {
                result = Resampler.resize(bitmap, width: target.width, height: target.height)
            }
        }
        return DecodedImage(bitmap: result, originalSize: info.orientedSize, isPartial: outcome.isPartial,
                            warning: outcome.warning, info: info)
    }

    /// B G R A straight alpha → B G R X composited over black.
    static func compositeOverBlack(_ bitmap: Bitmap) {
        for y in 0..<bitmap.height {
            let p = bitmap.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<bitmap.width {
                let o = x * 4
                let a = UInt32(p[o + 3])
                if a == 255 { continue }
                p[o] = UInt8((UInt32(p[o]) * a + 127) / 255)
                p[o + 1] = UInt8((UInt32(p[o + 1]) * a + 127) / 255)
                p[o + 2] = UInt8((UInt32(p[o + 2]) * a + 127) / 255)
                p[o + 3] = 0xFF
            }
        }
    }

    private final class Reader {
        private let handle: OpaquePointer

        /// `bytes` must stay valid until the reader is gone.
        init(_ bytes: UnsafeRawBufferPointer) throws(ImagingError) {
            guard let handle = cpng_decoder_create(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) else {
                throw ImagingError(.internalFailure, "out of memory creating a PNG decoder")
            }
            self.handle = handle
        }

        deinit { cpng_decoder_destroy(handle) }

        /// `cancellation` must outlive the decode (the caller holds it).
        func stop(when cancellation: DecodeCancellation) {
            cpng_decoder_set_stop_check(handle, { DecodeCancellation.isCancelled(context: $0) }, cancellation.context)
        }

        func readHeader() throws(ImagingError) -> ImageInfo {
            var header = cpng_header()
            try check(cpng_decoder_read_header(handle, &header))
            let colorSpace: ImageColorSpace
            switch header.color_type {
            case PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA: colorSpace = .grayscale
            case PNG_COLOR_TYPE_PALETTE: colorSpace = .indexed
            default: colorSpace = .rgb
            }
            return ImageInfo(format: .png, pixelWidth: Int(header.width), pixelHeight: Int(header.height),
                             orientation: .up, isProgressive: header.interlaced != 0, colorSpace: colorSpace,
                             bitsPerComponent: Int(header.bit_depth), hasAlpha: header.has_transparency != 0)
        }

        /// Decodes all rows; an image that ends early after some complete rows is partial unless
        /// `strict`. Damaged data (CRC, zlib errors) is always an error: PNG has checksums, so
        /// unlike JPEG there is no guessing. Interlaced images count rows only in the last Adam7 pass, when every row above
        /// the current one is complete.
        func decode(into bitmap: Bitmap, strict: Bool) throws(ImagingError) -> (isPartial: Bool, warning: String?) {
            var rows: UInt32 = 0
            let status = cpng_decoder_decode(handle, bitmap.pixels.assumingMemoryBound(to: UInt8.self), bitmap.stride, &rows)
            if status == CPNG_OK { return (false, nil) }
            if rows > 0, !strict, status == CPNG_TRUNCATED {
                let message = String(cString: cpng_decoder_message(handle))
                // Rows below the break are undefined after libpng's row buffer handling: blacken them.
                for y in Int(rows)..<bitmap.height {
                    bitmap.row(y).initializeMemory(as: UInt8.self, repeating: 0, count: bitmap.width * 4)
                }
                return (true, "\(message) after \(rows) of \(bitmap.height) rows")
            }
            try check(status)
            return (false, nil)
        }

        private func check(_ status: cpng_status) throws(ImagingError) {
            guard status != CPNG_OK else { return }
            let text = String(cString: cpng_decoder_message(handle))
            switch status {
            case CPNG_TRUNCATED: throw ImagingError(.truncated, "PNG data ends early (\(text))")
            case CPNG_NO_MEMORY: throw ImagingError(.internalFailure, "out of memory decoding PNG: \(text)")
            case CPNG_CANCELLED: throw ImagingError(.cancelled, "decoding cancelled")
            case CPNG_BAD_CALL: throw ImagingError(.internalFailure, "PNG decoder misuse: \(text)")
            default: throw ImagingError(.corrupt, "corrupt PNG: \(text)")
            }
        }
    }
}

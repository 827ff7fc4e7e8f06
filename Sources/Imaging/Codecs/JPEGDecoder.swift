import CJPEG
import Graphics

/// JPEG probing and decoding through libjpeg-turbo (the CJPEG shim catches its longjmps).
enum JPEGDecoder {
    static func probe(_ bytes: UnsafeRawBufferPointer) throws(ImagingError) -> ImageInfo {
        let decompressor = try Decompressor(strict: false, maxScans: 0)
        return try decompressor.readHeader(bytes)
    }

    /// Where the compressed data comes from: bytes in memory, or an open file libjpeg reads as it
    /// goes (either must stay valid until the decode returns).
    enum Input {
        case bytes(UnsafeRawBufferPointer)
        case file(PhotoFileStream)
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, fitting box: Size?, options: DecodeOptions,
                       cancellation: DecodeCancellation? = nil, memoryGate: DecodeMemoryGate = .shared)
        throws(ImagingError) -> DecodedImage
    {
        try decode(.bytes(bytes), options: options, cancellation: cancellation, memoryGate: memoryGate) { _ in .fit(box) }
    }

    /// `plan` sees the header (EXIF thumbnail included) and picks the size, or ends the decode.
    static func decode(_ input: Input, options: DecodeOptions,
                       cancellation: DecodeCancellation? = nil, memoryGate: DecodeMemoryGate = .shared,
                       plan: (ImageInfo) throws(ImagingError) -> DecodePlan)
        throws(ImagingError) -> DecodedImage
    {
        let decompressor = try Decompressor(strict: options.strict, maxScans: options.maxScans)
        if let cancellation { decompressor.stop(when: cancellation) }
        var info = try decompressor.readHeader(input)
        let box: Size?
        switch try plan(info) {
        case .finished(let decoded): return decoded
        case .fit(let size): box = size
        }
        // Decoded images live in caches; the thumbnail's bytes would ride along unaccounted.
        info.exif?.thumbnail = nil
        try PixelLimit.check(width: info.pixelWidth, height: info.pixelHeight, format: .jpeg, options: options)

        // Display-space target, then the same in stored (unrotated) pixels.
        let target = box.map { ImageDecoder.fittedSize(of: info.orientedSize, in: $0, allowsUpscaling: options.allowsUpscaling) }
        let storedTarget = target.map { info.orientation.swapsDimensions ? ($0.height, $0.width) : ($0.width, $0.height) }
        let scale = storedTarget.map {
            DCTScale.covering(width: info.pixelWidth, height: info.pixelHeight, target: $0, usesEighths: options.usesEighthScales)
        } ?? .full

        try cancellation?.check()
        let isCMYK = info.colorSpace == .cmyk || info.colorSpace == .ycck
        decompressor.allowDCOnly(options.progressiveDCOnly)
        decompressor.allowPacking(options.packsProgressiveCoefficients)
        let (width, height) = try decompressor.prepare(scale: scale, cmyk: isCMYK)
        let inverted = decompressor.sawAdobeMarker
        // Progressive files hold every coefficient while they decode: wait for room first.
        let estimated = decompressor.coefficientBytes
        let result = try memoryGate.withReservation(estimated) { () throws(ImagingError) -> Bitmap in
            if let storedTarget, storedTarget != (width, height),
               BandedResizer.isSinglePass(from: (width, height), to: storedTarget) {
                // Scanlines go straight into the resize: no full-size bitmap (see BandedResizer).
                var rows = try decompressor.rows(width: width, height: height)
                let resized = try withExtendedLifetime(cancellation) { () throws(ImagingError) in
                    try BandedResizer.resize(&rows, width: storedTarget.0, height: storedTarget.1) { band in
                        if isCMYK { CMYKConversion.convertInPlace(band, inverted: inverted) }
                    }
                }
                try rows.finish()
                return resized
            }
            let bitmap = Bitmap(width: width, height: height, format: .xrgb8888)
            try withExtendedLifetime(cancellation) { () throws(ImagingError) in try decompressor.decode(into: bitmap) }
            if isCMYK { CMYKConversion.convertInPlace(bitmap, inverted: inverted) }
            if let storedTarget, storedTarget != (width, height) {
                return Resampler.resize(bitmap, width: storedTarget.0, height: storedTarget.1)
            }
            return bitmap
        }
        let warnings = decompressor.warningCount
        var decoded = DecodedImage(bitmap: info.orientation.apply(to: result), originalSize: info.orientedSize,
                                   isPartial: warnings > 0, warning: warnings > 0 ? decompressor.firstWarning : nil,
                                   info: info, dctScale: scale)
        decoded.coefficientBytes = decompressor.packedCoefficientPeak > 0 ? decompressor.packedCoefficientPeak : estimated
        return decoded
    }

    /// One libjpeg decompressor for one image; owns the C handle.
    private final class Decompressor {
        fileprivate let handle: OpaquePointer
        private(set) var sawAdobeMarker = false

        init(strict: Bool, maxScans: Int) throws(ImagingError) {
            guard let handle = cjpeg_decoder_create(strict ? 1 : 0, Int32(clamping: maxScans)) else {
                throw ImagingError(.internalFailure, "out of memory creating a JPEG decoder")
            }
            self.handle = handle
        }

        deinit { cjpeg_decoder_destroy(handle) }

        /// `cancellation` must outlive the decode (the caller holds it).
        func stop(when cancellation: DecodeCancellation) {
            cjpeg_decoder_set_stop_check(handle, { DecodeCancellation.isCancelled(context: $0) }, cancellation.context)
        }

        var warningCount: Int { cjpeg_decoder_warning_count(handle) }

        /// Progressive 1/8 decodes from the DC scans only (see DecodeOptions.progressiveDCOnly).
        func allowDCOnly(_ allow: Bool) { cjpeg_decoder_allow_dc_only(handle, allow ? 1 : 0) }

        /// Progressive decodes above 1/8 keep their coefficients packed (see DecodeOptions).
        func allowPacking(_ allow: Bool) { cjpeg_decoder_allow_compact(handle, allow ? 1 : 0) }
        /// After the decode: the most packed coefficient bytes it held at once (0 when not packed).
        var packedCoefficientPeak: Int { cjpeg_decoder_coefficient_peak_bytes(handle) }

        /// After `prepare`: the whole-image coefficient buffers the decode will hold.
        var coefficientBytes: Int { cjpeg_decoder_coefficient_bytes(handle) }
        var firstWarning: String { String(cString: cjpeg_decoder_first_warning(handle)) }

        /// `bytes` must stay valid until the decompressor is gone.
        func readHeader(_ bytes: UnsafeRawBufferPointer) throws(ImagingError) -> ImageInfo {
            try readHeader(.bytes(bytes))
        }

        /// The input must stay valid (bytes alive, file open) until the decompressor is gone.
        func readHeader(_ input: Input) throws(ImagingError) -> ImageInfo {
            var header = cjpeg_header()
            switch input {
            case .bytes(let bytes):
                let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                try check(cjpeg_decoder_read_header(handle, base, bytes.count, &header))
            case .file(let stream):
                try check(cjpeg_decoder_read_header_file(handle, stream.stream.cStreamForDecoder, &header))
            }
            sawAdobeMarker = header.saw_adobe_marker != 0
            return JPEGShimResults.info(header)
        }

        func prepare(scale: DCTScale, cmyk: Bool) throws(ImagingError) -> (Int, Int) {
            var width: UInt32 = 0, height: UInt32 = 0
            try check(cjpeg_decoder_prepare(handle, UInt32(scale.eighths), 8, cmyk ? 1 : 0, &width, &height))
            return (Int(width), Int(height))
        }

        func decode(into bitmap: Bitmap) throws(ImagingError) {
            try check(cjpeg_decoder_decode(handle, bitmap.pixels.assumingMemoryBound(to: UInt8.self), bitmap.stride))
        }

        /// After prepare: the scanlines, a band at a time.
        func rows(width: Int, height: Int) throws(ImagingError) -> Rows {
            try check(cjpeg_decoder_start_rows(handle))
            return Rows(decompressor: self, width: width, height: height)
        }

        struct Rows: RowSource {
            let decompressor: Decompressor
            let width: Int
            let height: Int

            mutating func readRows(into band: Bitmap) throws(ImagingError) -> Int {
                var count: UInt32 = 0
                try decompressor.check(cjpeg_decoder_read_rows(decompressor.handle, band.pixels.assumingMemoryBound(to: UInt8.self),
                                                               band.stride, UInt32(band.height), &count))
                return Int(count)
            }

            /// Ends the decode (warnings after the last row, such as a missing EOI, are not counted).
            func finish() throws(ImagingError) {
                try decompressor.check(cjpeg_decoder_finish_rows(decompressor.handle))
            }
        }

        fileprivate func check(_ status: cjpeg_status) throws(ImagingError) {
            try JPEGShimResults.check(status, handle)
        }
    }
}

import SystemAccess
import CJPEG
import Graphics

/// Reads a JPEG file a band of rows at a time through libjpeg's scanline interface (the CJPEG
/// shim keeps setjmp in C). The file is read as needed, not loaded whole; memory is libjpeg's
/// row buffers plus the caller's band. (Progressive JPEGs still make libjpeg buffer the
/// coefficients of the whole image: that is how the format works.)
public final class JPEGBandReader: RowSource {
    public let info: ImageInfo
    public let width: Int
    public let height: Int
    private let handle: OpaquePointer
    private let file: StdioReadStream
    private var finished = false
    private var started = false
    /// The coefficient memory the decode will hold: 0 for baseline files; for progressive ones
    /// an estimate of the packed store (see cjpeg_compact.h). Known before any row is read.
    public let coefficientBytes: Int

    /// Opens `path` and reads its header; `scale` picks a DCT-scaled output (eighths).
    public init(path: RawPath, scale: DCTScale = .full, options: DecodeOptions = .default) throws(ImagingError) {
        // libjpeg reads through stdio (SystemAccess's stream, which owns the descriptor).
        let (file, _) = try PhotoFileStream.open(path, maxBytes: .max)
        guard let handle = cjpeg_decoder_create(options.strict ? 1 : 0, Int32(clamping: options.maxScans)) else {
            throw ImagingError(.internalFailure, "out of memory creating a JPEG decoder")
        }
        self.file = file
        self.handle = handle
        var header = cjpeg_header()
        do throws(ImagingError) {
            try Self.check(cjpeg_decoder_read_header_file(handle, file.cStreamForDecoder, &header), handle)
            var info = JPEGShimResults.info(header)
            info.exif?.thumbnail = nil
            self.info = info
            if info.colorSpace == .cmyk || info.colorSpace == .ycck {
                throw ImagingError(.unsupported, "CMYK JPEGs are not read in bands")
            }
            var w: UInt32 = 0, h: UInt32 = 0
            try Self.check(cjpeg_decoder_prepare(handle, UInt32(scale.eighths), 8, 0, &w, &h), handle)
            width = Int(w)
            height = Int(h)
            coefficientBytes = cjpeg_decoder_coefficient_bytes(handle)
        } catch {
            cjpeg_decoder_destroy(handle)
            throw error.attributed(to: path.description)
        }
    }

    deinit {
        if started && !finished { _ = cjpeg_decoder_finish_rows(handle) }
        // The decoder goes first: it reads from the stream until destroyed.
        cjpeg_decoder_destroy(handle)
        file.close()
    }

    public func readRows(into band: Bitmap) throws(ImagingError) -> Int {
        guard !finished else { return 0 }
        if !started {
            // libjpeg allocates its buffers here, not at open: the caller may reserve memory first.
            try Self.check(cjpeg_decoder_start_rows(handle), handle)
            started = true
        }
        var rows: UInt32 = 0
        try Self.check(cjpeg_decoder_read_rows(handle, band.pixels.assumingMemoryBound(to: UInt8.self), band.stride,
                                               UInt32(band.height), &rows), handle)
        if rows == 0 {
            finished = true
            _ = cjpeg_decoder_finish_rows(handle)
        }
        return Int(rows)
    }

    /// Warnings libjpeg emitted (corrupt or truncated data, filled with grey).
    public var warningCount: Int { cjpeg_decoder_warning_count(handle) }

    private static func check(_ status: cjpeg_status, _ handle: OpaquePointer) throws(ImagingError) {
        try JPEGShimResults.check(status, handle)
    }
}

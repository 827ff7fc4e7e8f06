import CJPEG
import Graphics

/// Writes JPEGs with libjpeg-turbo: photos exported by the app and test fixtures of every kind
/// the decoder must read (grayscale, progressive, restart markers, EXIF; CMYK/YCCK fixtures are
/// TestSupport's `CMYKJPEG`).
public enum JPEGEncoder {
    /// An APPn/COM marker segment written right after SOI.
    public struct Marker: Hashable, Sendable {
        /// The marker code: 0xE0 + n for APPn, 0xFE for COM.
        public var code: UInt8
        /// The payload (at most 65533 bytes), without the marker and length bytes.
        public var payload: [UInt8]

        public init(code: UInt8, payload: [UInt8]) {
            self.code = code
            self.payload = payload
        }

        /// An EXIF APP1 segment around a TIFF structure ("Exif\0\0" is prepended).
        public static func exif(tiff: [UInt8]) -> Marker {
            Marker(code: 0xE1, payload: [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff)
        }
    }

    public struct Options: Hashable, Sendable {
        /// 1...100.
        public var quality: Int = 90
        /// Multi-scan progressive JPEG (jpeg_simple_progression).
        public var progressive: Bool = false
        /// One-component JPEG from colour input.
        public var grayscale: Bool = false
        /// 4:4:4 (no chroma subsampling) instead of 4:2:0.
        public var fullChroma: Bool = false
        /// A restart marker every this many MCUs; 0 = none.
        public var restartInterval: Int = 0
        /// Arithmetic instead of Huffman entropy coding.
        public var arithmeticCoding: Bool = false
        public var markers: [Marker] = []

        public init(quality: Int = 90, progressive: Bool = false, grayscale: Bool = false, fullChroma: Bool = false,
                    restartInterval: Int = 0, arithmeticCoding: Bool = false, markers: [Marker] = []) {
            self.quality = quality
            self.progressive = progressive
            self.grayscale = grayscale
            self.fullChroma = fullChroma
            self.restartInterval = restartInterval
            self.arithmeticCoding = arithmeticCoding
            self.markers = markers
        }
    }

    /// Encodes an XRGB/ARGB bitmap (alpha ignored) or an A8 bitmap (as grayscale).
    public static func encode(_ bitmap: Bitmap, quality: Int = 90, progressive: Bool = false) throws(ImagingError) -> [UInt8] {
        try encode(bitmap, options: Options(quality: quality, progressive: progressive))
    }

    public static func encode(_ bitmap: Bitmap, options: Options) throws(ImagingError) -> [UInt8] {
        let input = bitmap.format == .a8 ? CJPEG_INPUT_GRAY : CJPEG_INPUT_BGRX
        return try run(pixels: UnsafeRawPointer(bitmap.pixels), stride: bitmap.stride, width: bitmap.width,
                       height: bitmap.height, input: input, options: options)
    }

    private static func run(pixels: UnsafeRawPointer, stride: Int, width: Int, height: Int,
                            input: cjpeg_input_format, options: Options) throws(ImagingError) -> [UInt8] {
        guard width > 0, height > 0, width <= 65500, height <= 65500 else {
            throw ImagingError(.internalFailure, "cannot encode a \(width)x\(height) JPEG")
        }
        // Marker payloads must stay alive while the C call runs: copy them into one buffer.
        let payloads = options.markers.flatMap(\.payload)
        var message = [CChar](repeating: 0, count: 256)
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = payloads.withUnsafeBufferPointer { payloadBuffer in
            var offset = 0
            var markers: [cjpeg_marker] = options.markers.map { marker in
                defer { offset += marker.payload.count }
                return cjpeg_marker(marker: Int32(marker.code), data: payloadBuffer.baseAddress.map { $0 + offset },
                                    length: marker.payload.count)
            }
            return markers.withUnsafeMutableBufferPointer { markerBuffer in
                var params = cjpeg_encode_params(
                    pixels: pixels.assumingMemoryBound(to: UInt8.self), stride: stride,
                    width: UInt32(width), height: UInt32(height), input: input,
                    quality: Int32(options.quality), grayscale: options.grayscale ? 1 : 0, ycck: 0,
                    progressive: options.progressive ? 1 : 0, arithmetic: options.arithmeticCoding ? 1 : 0,
                    full_chroma: options.fullChroma ? 1 : 0, restart_interval: UInt32(clamping: options.restartInterval),
                    markers: UnsafePointer(markerBuffer.baseAddress), marker_count: Int32(markerBuffer.count))
                return cjpeg_encode(&params, &out, &length, &message, message.count)
            }
        }
        guard status == CJPEG_OK, let out else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImagingError(.internalFailure, "JPEG encoding failed: \(text)")
        }
        defer { cjpeg_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}

import CJPEG

/// CMYK and YCCK JPEG fixtures, written by libjpeg through the CJPEG shim. Only tests need
/// them (the app never writes CMYK), so the encoder lives here rather than in Imaging.
public enum CMYKJPEG {
    public struct EncodingFailed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Encodes four-component samples (C M Y K per pixel, rows packed) as a CMYK JPEG, or YCCK
    /// when `ycck`. libjpeg marks the file with Adobe's APP14, and readers (ours included) then
    /// take the values as inverted: 255 = no ink. So pass 255 − ink.
    public static func encode(_ samples: [UInt8], width: Int, height: Int, ycck: Bool = false,
                              quality: Int = 90) throws -> [UInt8] {
        guard width > 0, height > 0, samples.count == width * height * 4 else {
            throw EncodingFailed(description: "CMYK samples do not match \(width)x\(height)")
        }
        var message = [CChar](repeating: 0, count: 256)
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = samples.withUnsafeBufferPointer { pixels in
            var params = cjpeg_encode_params(
                pixels: pixels.baseAddress, stride: width * 4, width: UInt32(width), height: UInt32(height),
                input: CJPEG_INPUT_CMYK, quality: Int32(quality), grayscale: 0, ycck: ycck ? 1 : 0,
                progressive: 0, arithmetic: 0, full_chroma: 0, restart_interval: 0, markers: nil, marker_count: 0)
            return cjpeg_encode(&params, &out, &length, &message, message.count)
        }
        guard status == CJPEG_OK, let out else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw EncodingFailed(description: "CMYK JPEG encoding failed: \(text)")
        }
        defer { cjpeg_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}

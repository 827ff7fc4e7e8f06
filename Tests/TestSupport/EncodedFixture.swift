import Graphics
import Imaging

/// HEIF, AVIF and WebP files made at test time by the real encoders from a PNG, and what the
/// reference decoders (heif-convert, dwebp) make of them, to compare pixels with.
public enum EncodedFixture {
    public enum Kind: Sendable {
        case heic, avif, webp, webpLossless

        var fileExtension: String {
            switch self {
            case .heic: return "heic"
            case .avif: return "avif"
            case .webp, .webpLossless: return "webp"
            }
        }
    }

    /// Encodes `bitmap` (written as an RGB PNG first) into `directory/name.EXT`; returns the path.
    public static func write(_ bitmap: Bitmap, as kind: Kind, to directory: String, name: String,
                             quality: Int = 90, extraArguments: [String] = []) throws -> String {
        try write(png: PNGEncoder.encode(bitmap), as: kind, to: directory, name: name, quality: quality,
                  extraArguments: extraArguments)
    }

    /// Encodes the PNG `png` (any colour type: grey and alpha PNGs make grey and alpha images).
    public static func write(png: [UInt8], as kind: Kind, to directory: String, name: String,
                             quality: Int = 90, extraArguments: [String] = []) throws -> String {
        let source = "\(directory)/\(name)-source.png"
        let out = "\(directory)/\(name).\(kind.fileExtension)"
        try FileReader.write(png, to: source)
        switch kind {
        case .heic: try ExternalTool.run("heif-enc", ["-q", "\(quality)"] + extraArguments + ["-o", out, source])
        case .avif: try ExternalTool.run("heif-enc", ["-A", "-q", "\(quality)"] + extraArguments + ["-o", out, source])
        case .webp: try ExternalTool.run("cwebp", ["-quiet", "-q", "\(quality)"] + extraArguments + [source, "-o", out])
        case .webpLossless: try ExternalTool.run("cwebp", ["-quiet", "-lossless", "-exact"] + extraArguments + [source, "-o", out])
        }
        return out
    }

    /// The reference decoder's picture of `path`: heif-convert for HEIF/AVIF, dwebp (scaled
    /// with `-scale` when `scaledTo` is given) for WebP. Transparency comes back composited
    /// over black, as PhotoKiosk shows it.
    public static func reference(of path: String, scaledTo size: (width: Int, height: Int)? = nil) throws -> Bitmap {
        let out = path + ".reference.png"
        if path.hasSuffix(".webp") {
            let scale = size.map { ["-scale", "\($0.width)", "\($0.height)"] } ?? []
            try ExternalTool.run("dwebp", ["-quiet", path] + scale + ["-o", out])  // PNG by default
        } else {
            precondition(size == nil, "heif-convert does not scale")
            try ExternalTool.run("heif-convert", [path, out])
        }
        return try ImageDecoder.decode(path: out).bitmap
    }

    /// Where the ASCII `text` (a box or chunk name) first occurs in `bytes`, to damage a file
    /// in a chosen place.
    public static func range(of text: String, in bytes: [UInt8]) -> Range<Int>? {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return nil }
        for i in 0...(bytes.count - needle.count) where bytes[i..<(i + needle.count)].elementsEqual(needle) {
            return i..<(i + needle.count)
        }
        return nil
    }
}

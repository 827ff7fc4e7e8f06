/// Limits and policy for one decode.
public struct DecodeOptions: Hashable, Sendable {
    /// Refuse images with more pixels than this (checked from the header, before allocating).
    public var maxPixels: Int
    /// Refuse files larger than this many bytes (checked before reading them).
    public var maxFileBytes: Int
    /// Turn decoder warnings (premature end of file, corrupt entropy data) into errors instead
    /// of returning a partial image.
    public var strict: Bool
    /// When fitting into a box larger than the image, scale up (otherwise keep the image size).
    public var allowsUpscaling: Bool
    /// Also consider libjpeg-turbo's M/8 scales (3/8, 5/8, ...), not only 1/1, 1/2, 1/4, 1/8.
    /// Less decoding for some sizes, but those IDCTs have no SIMD path.
    public var usesEighthScales: Bool
    /// Refuse progressive JPEGs with more scans than this (pathological files decode for minutes).
    public var maxScans: Int
    /// At 1/8 scale, decode a progressive JPEG from its DC scans alone (one coefficient per 8x8
    /// block kept instead of 64: ~1 MB instead of ~88 MB for a 5120x2880 photo, and the AC
    /// scans are skipped). The 1x1 IDCT of that scale reads nothing else for luma.
    public var progressiveDCOnly: Bool
    /// Above 1/8 scale, keep a progressive JPEG's coefficients packed between scans (only the
    /// nonzero ones: 9-25 MB instead of 88 MB for a 5120x2880 photo; the pixels are the same).
    public var packsProgressiveCoefficients: Bool

    public init(maxPixels: Int = 100_000_000, maxFileBytes: Int = 256 << 20, strict: Bool = false,
                allowsUpscaling: Bool = false, usesEighthScales: Bool = false, maxScans: Int = 1000,
                progressiveDCOnly: Bool = true, packsProgressiveCoefficients: Bool = true) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
        self.strict = strict
        self.allowsUpscaling = allowsUpscaling
        self.usesEighthScales = usesEighthScales
        self.maxScans = maxScans
        self.progressiveDCOnly = progressiveDCOnly
        self.packsProgressiveCoefficients = packsProgressiveCoefficients
    }

    public static let `default` = DecodeOptions()
}

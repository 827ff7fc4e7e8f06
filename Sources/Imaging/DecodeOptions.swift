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

    public init(maxPixels: Int = 100_000_000, maxFileBytes: Int = 256 << 20, strict: Bool = false,
                allowsUpscaling: Bool = false, usesEighthScales: Bool = false, maxScans: Int = 1000) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
        self.strict = strict
        self.allowsUpscaling = allowsUpscaling
        self.usesEighthScales = usesEighthScales
        self.maxScans = maxScans
    }

    public static let `default` = DecodeOptions()
}

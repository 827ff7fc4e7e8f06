import Graphics

/// A JPEG DCT scaling factor M/8: libjpeg-turbo decodes straight to a smaller size by using
/// only the low-frequency coefficients, which is faster and smoother than decoding fully and
/// shrinking.
public struct DCTScale: Hashable, Sendable, CustomStringConvertible {
    /// Eighths: 8 = full size, 4 = half, 2 = quarter, 1 = eighth.
    public let eighths: Int

    public init(eighths: Int) {
        precondition((1...8).contains(eighths), "DCT scale is 1/8...8/8")
        self.eighths = eighths
    }

    public static let full = DCTScale(eighths: 8)

    /// The output size libjpeg produces for an image of `width`x`height` at this scale
    /// (jdiv_round_up(dimension·M, 8), as jpeg_calc_output_dimensions computes it).
    public func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        ((width * eighths + 7) / 8, (height * eighths + 7) / 8)
    }

    /// The smallest scale whose output still covers `target` (stored, unrotated pixels), so the
    /// final resize only shrinks, and by at most 2x when powers of two are used.
    public static func covering(width: Int, height: Int, target: (width: Int, height: Int),
                                usesEighths: Bool = false) -> DCTScale {
        let candidates = usesEighths ? Array(1...8) : [1, 2, 4, 8]
        for m in candidates {
            let scale = DCTScale(eighths: m)
            let out = scale.outputSize(width: width, height: height)
            if out.width >= target.width && out.height >= target.height { return scale }
        }
        return .full
    }

    public var description: String { eighths % 8 == 0 ? "1/1" : eighths.isMultiple(of: 2) ? "1/\(8 / eighths)" : "\(eighths)/8" }
}

extension ImageDecoder {
    /// The whole-pixel size an image of (oriented) `size` gets when aspect-fitted inside `box`.
    /// Never larger than the image unless `allowsUpscaling`; never smaller than 1x1.
    public static func fittedSize(of size: Size, in box: Size, allowsUpscaling: Bool = false)
        -> (width: Int, height: Int)
    {
        guard !size.isEmpty, !box.isEmpty else { return (max(1, Int(size.width)), max(1, Int(size.height))) }
        let widthLimits = box.width / size.width <= box.height / size.height
        let scale = widthLimits ? box.width / size.width : box.height / size.height
        if scale >= 1 && !allowsUpscaling { return (Int(size.width.rounded()), Int(size.height.rounded())) }
        // The limiting side gets the box's whole pixels; the other follows the aspect ratio.
        if widthLimits {
            let w = max(1, Int(box.width))
            return (w, min(max(1, Int(box.height)), max(1, Int((size.height * Double(w) / size.width).rounded()))))
        } else {
            let h = max(1, Int(box.height))
            return (min(max(1, Int(box.width)), max(1, Int((size.width * Double(h) / size.height).rounded()))), h)
        }
    }
}

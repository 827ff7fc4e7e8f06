/// How an image fills a rectangle of another shape.
public enum ContentMode: Sendable {
    /// Whole image visible, letterboxed, centred.
    case aspectFit
    /// Rectangle covered, the image's overflow cropped equally from both sides.
    case aspectFill
    /// Stretched to the rectangle.
    case scaleToFill
}

extension Canvas {
    /// Draws `image` into `rect` according to `mode`. Aspect fill crops the source instead of
    /// drawing outside the rectangle, so no clip is needed and fewer pixels are sampled.
    public func draw(_ image: Bitmap, in rect: Rect, mode: ContentMode, quality: ScalingQuality = .bilinear) {
        switch mode {
        case .scaleToFill:
            draw(image, in: rect, quality: quality)
        case .aspectFit:
            draw(image, in: rect.aspectFit(image.size), quality: quality)
        case .aspectFill:
            draw(image, from: Self.aspectFillSource(imageSize: image.size, destination: rect.size), in: rect, quality: quality)
        }
    }

    /// The centred part of an image of `imageSize` that has the aspect ratio of `destination`.
    public static func aspectFillSource(imageSize: Size, destination: Size) -> Rect {
        guard !imageSize.isEmpty, !destination.isEmpty else { return Rect(size: imageSize) }
        let scale = max(destination.width / imageSize.width, destination.height / imageSize.height)
        let w = min(imageSize.width, destination.width / scale)
        let h = min(imageSize.height, destination.height / scale)
        return Rect(x: (imageSize.width - w) / 2, y: (imageSize.height - h) / 2, width: w, height: h)
    }
}

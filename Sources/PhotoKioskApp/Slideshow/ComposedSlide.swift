import Graphics
import Imaging

/// A slide ready to show: the composed bitmap, the photos on it (one, or a portrait pair) and
/// where they lie on it (the Ken Burns point of interest is chosen inside that area).
public struct ComposedSlide: @unchecked Sendable {
    public let bitmap: Bitmap
    public let photos: [RawPath]
    public let content: Rect

    public init(bitmap: Bitmap, photos: [RawPath], content: Rect) {
        self.bitmap = bitmap
        self.photos = photos
        self.content = content
    }
}

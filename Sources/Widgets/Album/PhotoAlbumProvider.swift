import Graphics

/// How good a photo's bitmap is. Pages only ever move up this order (Nimbus: Unknown <
/// Thumbnail < Original), so a load that finishes late never replaces a better image.
public enum PhotoQuality: Int, Comparable, Sendable, CustomStringConvertible {
    case unknown, thumbnail, screen, full

    public static func < (a: PhotoQuality, b: PhotoQuality) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .thumbnail: return "thumbnail"
        case .screen: return "screen"
        case .full: return "full"
        }
    }
}

/// What a page can show for a photo right now.
public struct PhotoContent: Sendable {
    public var bitmap: Bitmap?
    public var quality: PhotoQuality
    /// The photo's full size in pixels (oriented), once a header was read; zooming needs it.
    public var originalSize: Size?
    /// Set when the photo cannot be decoded; a page without a bitmap shows the broken tile.
    public var failure: String?

    public init(bitmap: Bitmap? = nil, quality: PhotoQuality = .unknown, originalSize: Size? = nil, failure: String? = nil) {
        self.bitmap = bitmap
        self.quality = bitmap == nil ? .unknown : quality
        self.originalSize = originalSize
        self.failure = failure
    }

    public static let empty = PhotoContent()
}

/// What the album needs of one photo: the quality its page needs at its current zoom, and how
/// urgent it is (pages from the centre page: 0 for the centre, 1 for its neighbours…).
///
/// This is the seam for tiled images: `zoomScale` tells the provider how far the page is zoomed
/// (1 = one photo pixel per screen pixel), so a provider may answer very large photos with tiles
/// instead of one `.full` bitmap.
public struct PhotoDemand: Hashable, Sendable {
    public var quality: PhotoQuality
    public var distance: Double
    public var zoomScale: Double

    public init(quality: PhotoQuality, distance: Double, zoomScale: Double = 0) {
        self.quality = quality
        self.distance = distance
        self.zoomScale = zoomScale
    }
}

/// Supplies photos to a `PhotoAlbumView` without the album knowing about files, decoders or
/// threads (the app implements it with its image loader and caches, as the grid's
/// `ThumbnailProvider`).
public protocol PhotoAlbumProvider: AnyObject {
    var photoCount: Int { get }
    /// The best content available now, without waiting (memory caches only).
    func photoContent(at index: Int) -> PhotoContent
    /// A short caption (the file name), or nil.
    func caption(at index: Int) -> String?
    /// The photos the album wants now. Anything not listed is no longer wanted: its loads may be
    /// cancelled. When something better arrives the provider calls `PhotoAlbumView.photoDidChange(at:)`.
    func updateWantedPhotos(_ demands: [Int: PhotoDemand])
}

import Graphics

/// The transforms a view may hold: a uniform scale then a translation (zooming and sliding).
/// Rotation and skew are left out because the canvas cannot draw them.
///
/// The scale applies about the view's frame origin (top-left), not its centre: a point p of the
/// bounds lands at frame.origin + (p − bounds.origin)·scale in the superview.
public struct ViewTransform: Sendable, Hashable {
    public var scale: Double
    public var translation: Point

    public init(scale: Double = 1, translation: Point = .zero) {
        precondition(scale > 0, "a view scale must be positive")
        self.scale = scale
        self.translation = translation
    }

    public static let identity = ViewTransform()
}

/// How large a decoded image is meant to be; part of every cache key, so a thumbnail and the
/// screen-sized image of the same file are different entries.
public enum SizeClass: Hashable, Sendable, CustomStringConvertible {
    /// Fits inside an `edge` × `edge` square (grid cells).
    case thumbnail(edge: Int)
    /// Fits inside the screen (the paging photo view).
    case screen(width: Int, height: Int)
    /// Every pixel of the file (zoom tiles are built from this).
    case full

    public var description: String {
        switch self {
        case .thumbnail(let edge): return "thumb\(edge)"
        case .screen(let width, let height): return "screen\(width)x\(height)"
        case .full: return "full"
        }
    }
}

/// What a loaded bitmap is: which file, at which size class.
public struct ImageKey: Hashable, Sendable, CustomStringConvertible {
    public var path: RawPath
    public var size: SizeClass

    public init(path: RawPath, size: SizeClass) {
        self.path = path
        self.size = size
    }

    public var description: String { "\(path) @\(size)" }
}

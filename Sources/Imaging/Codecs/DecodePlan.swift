import Graphics

/// What a file decode does once its header has been read: the caller picks the size from what
/// the header says (a thumbnail covers a square of the photo's shape) or hands back an image
/// made without decoding the main one (the camera's EXIF thumbnail). Deciding inside the decode
/// is what lets a decode open the file and parse its header once.
public enum DecodePlan: Sendable {
    /// Decode the main image, aspect-fitted inside the box (display pixels; nil = full size).
    case fit(Size?)
    /// Stop here: this is the result, and the main image is not decoded.
    case finished(DecodedImage)
}

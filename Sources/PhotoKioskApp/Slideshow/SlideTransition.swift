/// The slide transition's geometry: the incoming photo enters from the right edge and pushes the
/// outgoing one out to the left, the two always touching, so together they cover the screen at
/// every moment. Offsets are whole pixels: a 1:1 slide is then a plain copy each frame (no
/// resampling, no shimmer on fine detail as it moves).
public enum SlideTransition {
    /// Horizontal offsets of the outgoing and incoming slides at `progress` (0...1, already
    /// eased) on a screen `width` pixels wide.
    public static func offsets(progress: Double, width: Double) -> (outgoing: Double, incoming: Double) {
        let p = min(1, max(0, progress.isFinite ? progress : 1))
        let incoming = (width * (1 - p)).rounded()
        return (incoming - width, incoming)
    }
}

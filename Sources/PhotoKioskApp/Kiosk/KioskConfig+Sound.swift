import Imaging

extension KioskConfig {
    /// A clip's sound. Off unless `clips`: a frame is silent by default, and the slideshow plays
    /// clips muted whatever this says (issue 35).
    public struct Sound: Equatable, Sendable {
        /// Clips in the album, and a Live or Motion Photo's motion held down, play their sound.
        public var clips: Bool = false
        /// The ALSA device it plays on (`ClipSound` says which names are taken).
        public var device: String = "default"
        public init() {}

        /// Where the album's clips play their sound; nil when they play muted.
        public var output: ClipSound? { clips ? ClipSound(device: device) : nil }
    }
}

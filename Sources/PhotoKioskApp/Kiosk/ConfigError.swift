/// Why a configuration was refused: one message naming the file, the line and the option, e.g.
/// `/etc/photokiosk/config.toml:12: display.rotation: 45 is not one of 0, 90, 180, 270`.
/// The program does not start with a half-understood configuration.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// Not valid TOML (or a TOML feature the kiosk does not read).
        case syntax
        /// A key the kiosk does not know; `suggestion` is the closest known key, if any.
        case unknownKey(suggestion: String?)
        case wrongType
        /// Right type, but not an allowed value (out of range, not one of the choices, bad format).
        case invalidValue
        /// A required key is missing (only inside `[[schedule.period]]`).
        case missingKey
        /// The file could not be read.
        case unreadable
    }

    public var kind: Kind
    /// The config file, or "command line" for flags.
    public var file: String
    public var line: Int?
    /// The dotted option name, e.g. "slideshow.interval".
    public var key: String?
    public var message: String
    /// The file's other mistakes, after this one in line order: one run reports them all.
    public var laterMistakes: [ConfigError] = []

    public init(kind: Kind, file: String, line: Int?, key: String?, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// The first mistake by line carrying the rest (nil when there is none). Mistakes without a
    /// line (a default that clashes with an option set in the file) come last; equal lines keep
    /// the order they were found in.
    public init?(collecting mistakes: [ConfigError]) {
        let ordered = mistakes.enumerated().sorted {
            ($0.element.line ?? .max, $0.offset) < ($1.element.line ?? .max, $1.offset)
        }.map(\.element)
        guard var first = ordered.first else { return nil }
        first.laterMistakes = Array(ordered.dropFirst())
        self = first
    }

    /// Every mistake, in line order: this one and the later ones.
    public var allMistakes: [ConfigError] {
        var head = self
        head.laterMistakes = []
        return [head] + laterMistakes
    }

    /// One line per mistake, `FILE:LINE: option: problem`.
    public var description: String {
        allMistakes.map { mistake in
            var s = mistake.file
            if let line = mistake.line { s += ":\(line)" }
            if let key = mistake.key { s += ": \(key)" }
            return s + ": " + mistake.message
        }.joined(separator: "\n")
    }
}

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

    public init(kind: Kind, file: String, line: Int?, key: String?, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let key { s += ": \(key)" }
        return s + ": " + message
    }
}

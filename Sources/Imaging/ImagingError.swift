import SystemAccess

/// Why an image could not be read, probed, decoded or encoded.
///
/// `description` is a sentence for a person (logs, the placeholder of a broken photo), naming the
/// file when it is known: "IMG_0001.jpg: JPEG data ends early (Premature end of JPEG file)".
public struct ImagingError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// None of the formats read (text, HTML, an empty file, another format).
        case notAnImage
        /// A real image this build cannot decode (12-bit or lossless JPEG, too many scans, a HEIF codec libheif lacks).
        case unsupported
        /// Larger than the configured pixel or byte limit; refused before allocating.
        case tooLarge
        /// Damaged data: bad markers, CRC errors, broken compressed stream.
        case corrupt
        /// The data ends before the image does.
        case truncated
        /// The file could not be read (missing, no permission, a directory...).
        case io
        /// Stopped through a `DecodeCancellation`.
        case cancelled
        /// Memory ran out or the encoder was misused.
        case internalFailure
    }

    public var kind: Kind
    /// What happened, without the file name.
    public var message: String
    /// The file's name (last path component) when the image came from a file.
    public var fileName: String?

    /// The system call that failed, with its errno and the whole path, for `.io` errors.
    public var systemError: SystemError?

    public init(_ kind: Kind, _ message: String, fileName: String? = nil, systemError: SystemError? = nil) {
        self.kind = kind
        self.message = message
        self.fileName = fileName
        self.systemError = systemError
    }

    public var description: String {
        if let fileName { return "\(fileName): \(message)" }
        return message
    }

    /// The same error, attributed to the file at `path`.
    func attributed(to path: String) -> ImagingError {
        var copy = self
        copy.fileName = copy.fileName ?? FileReader.lastComponent(of: path)
        return copy
    }
}

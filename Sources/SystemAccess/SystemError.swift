import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A system call that failed: which call, on which path, and the errno it set. The one error of
/// the edge's lower half; the layers above wrap it into their own error (ImagingError,
/// PlatformError, AtomicFile.WriteError...) or show it as it is.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call, as a person would look it up: "open", "read", "rename", "inotify_add_watch".
    public var operation: String
    /// The path it was about (bytes: file names need not be UTF-8); nil for calls on a descriptor.
    public var path: FilePath?
    public var errno: Errno

    public init(_ operation: String, path: FilePath? = nil, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The errno the last failed call left, as an `Errno` (never 0: EIO stands in for a call
    /// that failed without setting one).
    public static var lastErrno: Errno {
        let code = Glibc.errno
        return Errno(rawValue: code == 0 ? EIO : code)
    }

    /// "open /photos/a.jpg: No such file or directory"; bytes that are not UTF-8 show as U+FFFD.
    public var description: String {
        let subject = path.map { " \($0)" } ?? ""
        return "\(operation)\(subject): \(errno)"
    }
}

extension Errno {
    /// The errno of `error` when it is one (swift-system's calls throw untyped errors that are
    /// always an `Errno`); EIO otherwise.
    public init(_ error: any Error) {
        self = (error as? Errno) ?? .ioError
    }
}

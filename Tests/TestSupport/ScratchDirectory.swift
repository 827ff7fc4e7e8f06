import Imaging
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp (resolved, so paths compare with what a scanner reports),
/// removed with everything in it when dropped.
public final class ScratchDirectory {
    public let path: RawPath

    public init() {
        path = RawPath(makeTemporaryDirectory("test")).resolved()!
    }

    deinit { removeTree(path) }

    public subscript(relative: String) -> RawPath { path.appending(relative) }

    /// Writes a file, making the directories above it first.
    @discardableResult
    public func file(_ relative: String, bytes: [UInt8] = []) -> RawPath {
        let file = path.appending(relative)
        makeDirectory(file.parent)
        writeFile(file, bytes)
        return file
    }

    @discardableResult
    public func directory(_ relative: String) -> RawPath {
        let dir = path.appending(relative)
        makeDirectory(dir)
        return dir
    }

    private var foldersMade = 0

    /// A new empty folder inside, as a String path: `name` and a number, so each call gives a
    /// fresh one. For a suite that keeps `let scratch = ScratchDirectory()`: every folder a test
    /// makes goes when the suite's instance for that test does.
    public func newFolder(_ name: String = "folder") -> String {
        foldersMade += 1
        return directory("\(name)-\(foldersMade)").description
    }
}

/// A fresh directory under /tmp; the caller removes it (`removeTree`).
public func makeTemporaryDirectory(_ prefix: String = "test") -> String {
    var template = Array("/tmp/photokiosk-\(prefix)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
        guard let made = mkdtemp(buffer.baseAddress!) else { preconditionFailure("mkdtemp failed: \(errno)") }
        return String(cString: made)
    }
}

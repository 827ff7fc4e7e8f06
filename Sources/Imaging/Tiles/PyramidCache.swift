import SystemAccess
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Pyramids of big photos kept on disk, one folder per photo version: keyed by path, file size
/// and modification time, so an edited photo simply gets a new pyramid (old ones can be
/// deleted with the folder at any time). A pyramid is built in a temporary folder and renamed
/// into place, so a half-built one is never found.
public struct PyramidCache: Sendable {
    public let directory: String
    public let options: PyramidBuilder.Options
    /// After each build the least recently used pyramids are deleted down to this many bytes.
    public let maxBytes: Int

    public init(directory: String, options: PyramidBuilder.Options = .init(), maxBytes: Int = 2 << 30) {
        self.directory = directory
        self.options = options
        self.maxBytes = maxBytes
    }

    /// Where the pyramid of the file at `path` (as it is now) lives; nil when it cannot be stat'ed.
    public func descriptorPath(for path: RawPath) -> String? {
        guard let key = ThumbnailCacheKey(path: path, edge: options.tileSize) else { return nil }
        let bytes = key.serialized + Array(options.format.rawValue.utf8)
        var hash = FNV1a64()
        hash.combine(bytes)
        var second = FNV1a64(basis: 0x8422_2325_CBF2_9CE4)
        second.combine(bytes.reversed())
        return directory + "/" + hexDigits(hash.value) + hexDigits(second.value) + "/image.dzi"
    }

    /// The cached pyramid's descriptor path, if it was built already.
    public func existing(for path: RawPath) -> String? {
        guard let descriptor = descriptorPath(for: path) else { return nil }
        return (try? FileSystemCalls.status(FilePath(descriptor))) != nil ? descriptor : nil
    }

    /// Builds the pyramid unless cached; returns its descriptor path. Blocks: call on a worker.
    public func build(for path: RawPath, decodeOptions: DecodeOptions = .default,
                      progress: PyramidBuilder.Progress? = nil) throws(ImagingError) -> String {
        if let found = existing(for: path) { return found }
        guard let descriptor = descriptorPath(for: path) else { throw FileReader.error(.noSuchFileOrDirectory, path.description) }
        let folder = String(descriptor.dropLast("/image.dzi".count))
        try PyramidBuilder.makeDirectory(directory)
        let temporary = folder + ".tmp-\(getpid())-\(UInt(pthread_self()) % 100_000)"
        _ = try PyramidBuilder.build(imageAt: path, directory: temporary, name: "image", options: options,
                                     decodeOptions: decodeOptions, progress: progress)
        do {
            try FileSystemCalls.rename(FilePath(temporary), to: FilePath(folder))
        } catch {
            // Another process built it meanwhile: keep theirs.
            Self.removeTree(temporary)
            if existing(for: path) == nil { throw FileReader.error(error) }
        }
        prune(toBytes: maxBytes, keeping: descriptor)
        return descriptor
    }
}

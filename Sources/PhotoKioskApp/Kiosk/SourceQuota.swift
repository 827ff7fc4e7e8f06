import Imaging
import Logging
import SystemAccess
import SystemPackage

/// A source larger than its quota keeps its newest photos by date taken that fit (issue 34,
/// item 2). rclone cannot choose so (its filters know names, sizes and file times, not EXIF), so
/// the choice is made after each sync, on the photos that are here, with the date the library
/// sorts by (EXIF DateTimeOriginal, else the file time), and on those left out before: their
/// dates are kept in the left-out list, so a photo left out comes back when newer ones are
/// deleted on the server. The list also becomes rclone's filter rules for the next sync,
/// so a photo left out is not downloaded again. A first sync may go over the quota by what it
/// downloads before the choice is made (documented in docs/sources.md).
public enum SourceQuota {
    public struct Photo: Equatable, Sendable {
        /// Relative to the source's folder, as rclone lists it.
        public var path: String
        public var size: Int64
        /// Date taken, else the file's modification time (seconds since the epoch).
        public var date: Int64

        public init(path: String, size: Int64, date: Int64) {
            self.path = path
            self.size = size
            self.date = date
        }
    }

    /// Newest first (ties by name), until the next does not fit: what is kept is every photo
    /// taken after some moment, so the frame shows the latest, without gaps.
    public static func choose(_ photos: [Photo], quotaBytes: Int64) -> (kept: [Photo], leftOut: [Photo]) {
        let ordered = photos.sorted { ($0.date, $1.path) > ($1.date, $0.path) }
        var used: Int64 = 0
        var count = 0
        for photo in ordered {
            guard used + photo.size <= quotaBytes else { break }
            used += photo.size
            count += 1
        }
        return (Array(ordered.prefix(count)), Array(ordered.dropFirst(count)))
    }

    /// The left-out list: one photo a line, `date<TAB>size<TAB>path`.
    public static func parseList(_ text: String) -> [Photo] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let date = Int64(fields[0]), let size = Int64(fields[1]) else { return nil }
            return Photo(path: String(fields[2]), size: size, date: date)
        }
    }

    public static func listText(_ photos: [Photo]) -> String {
        photos.map { "\($0.date)\t\($0.size)\t\($0.path)\n" }.joined()
    }

    /// rclone filter rules (`--filter-from`) that exclude exactly these paths (anchored at the
    /// folder, with the glob characters escaped).
    public static func excludeText(_ photos: [Photo]) -> String {
        photos.map { photo in
            var line = "- /"
            for character in photo.path {
                if "*?[]{}\\".contains(character) { line.append("\\") }
                line.append(character)
            }
            return line + "\n"
        }.joined()
    }

    /// After a sync of `folder`: chooses, deletes the photos here that are left out, and writes
    /// the left-out list and the exclude file. `serverPaths`: what the server listed (a
    /// remembered photo no longer there is forgotten). Returns the status's words when photos
    /// are left out, else nil.
    public static func apply(folder: String, quotaMB: Int, serverPaths: Set<String>, leftOutFile: String,
                             excludeFile: String, logger: Logger) throws -> String? {
        guard let root = RawPath(folder).resolved() else { return nil }
        let prefix = root.bytes.count + 1
        let scanner = LibraryScanner(roots: [root], captureDate: { path in
            (try? ImageDecoder.probe(path: path))?.exif?.dateTimeOriginalSeconds
        }, logger: logger)
        var here: [Photo] = []
        var absolute: [String: RawPath] = [:]
        for file in scanner.scanAll().files where file.path.bytes.count > prefix {
            let relative = String(decoding: file.path.bytes.dropFirst(prefix), as: UTF8.self)
            here.append(Photo(path: relative, size: file.size, date: file.captureDate ?? file.modificationSeconds))
            absolute[relative] = file.path
        }
        let remembered = parseList(AtomicFile.read(leftOutFile, limit: 64 << 20).map { String(decoding: $0, as: UTF8.self) } ?? "")
            .filter { serverPaths.contains($0.path) && absolute[$0.path] == nil }
        let quotaBytes = Int64(quotaMB) << 20
        let (_, leftOut) = choose(here + remembered, quotaBytes: quotaBytes)
        for photo in leftOut {
            guard let path = absolute[photo.path] else { continue }
            try FileSystemCalls.unlink(FilePath(path.description))
        }
        try AtomicFile.write(Array(listText(leftOut).utf8), to: leftOutFile)
        try AtomicFile.write(Array(excludeText(leftOut).utf8), to: excludeFile)
        guard !leftOut.isEmpty else { return nil }
        return "\(leftOut.count) older photo\(leftOut.count == 1 ? "" : "s") left out to stay under \(quotaMB) MB"
    }
}

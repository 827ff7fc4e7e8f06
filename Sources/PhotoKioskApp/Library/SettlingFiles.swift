import Imaging
import Platform
import SystemAccess

/// Photos a scan or a poll saw while they may still be being written, held back until they
/// are complete, so a half-copied file never shows, not even as a broken tile.
///
/// The watcher needs no such care (it reports a photo on IN_CLOSE_WRITE or IN_MOVED_TO, when it
/// is complete); a listing sees a file at its final name while rclone writes it in place (as 1.60
/// does) or a slow `cp` runs. A writer sets the modification time to now with every write, so
/// only a file modified within `recentSeconds` is looked at more closely: the kernel is asked
/// whether anything has it open for writing (`FileSystemCalls.isOpenForWriting`). Not open: shown.
/// Open: held until its IN_CLOSE_WRITE shows it, or until a later look finds it closed. Where the
/// kernel cannot say (a file someone else owns, a network file system), it is held until two
/// looks `quietSeconds` apart find the same size and time. A held file that is gone is dropped.
/// Loop thread only.
final class SettlingFiles {
    /// How recent a modification time makes a file worth asking about (a writer that stalls for
    /// longer, without closing the file, is taken as finished: its close puts the photo right).
    var recentSeconds = 120.0
    /// How often held files are looked at again.
    var quietSeconds = 2.0
    /// The wall clock, nanoseconds since the epoch (a file's time is on it).
    var now: () -> Int64 = { SystemClock.realtimeNanoseconds() }
    /// Photos that settled: applied as changes.
    var onSettled: ([LibraryChange]) -> Void = { _ in }

    private let loop: EventLoop
    /// The photo the list shows at a path, if any (what stays shown while a rewrite settles).
    private let listed: (RawPath) -> ScannedFile?
    /// Read again once a file settles (a half-written file may not have its date yet).
    private let captureDate: LibraryScanner.CaptureDateReader?
    private var held: [RawPath: ScannedFile] = [:]
    private var timer: EventLoop.TimerID?

    init(loop: EventLoop, captureDate: LibraryScanner.CaptureDateReader?, listed: @escaping (RawPath) -> ScannedFile?) {
        self.loop = loop
        self.captureDate = captureDate
        self.listed = listed
    }

    deinit {
        if let timer { loop.cancelTimer(timer) }
    }

    /// Paths held back now (tests, the log).
    var heldPaths: [RawPath] { held.keys.sorted() }

    /// What a listing found, without the files that may still be being written (held until
    /// they settle); a held rewrite of a photo the list shows keeps the shown version for now.
    func settled(_ files: [ScannedFile]) -> [ScannedFile] {
        let now = self.now()
        var result: [ScannedFile] = []
        result.reserveCapacity(files.count)
        for file in files {
            guard isRecent(file, now: now), FileSystemCalls.isOpenForWriting(file.path.filePath) != false else {
                held[file.path] = nil
                result.append(file)
                continue
            }
            hold(file)
            if let shown = listed(file.path) { result.append(shown) }
        }
        return result
    }

    /// A poll's changes, without additions that may still be being written (held until they settle).
    func settled(_ changes: [LibraryChange]) -> [LibraryChange] {
        let now = self.now()
        return changes.filter { change in
            guard case .added(let file) = change, isRecent(file, now: now),
                  FileSystemCalls.isOpenForWriting(file.path.filePath) != false else { return true }
            hold(file)
            return false
        }
    }

    private func hold(_ file: ScannedFile) {
        held[file.path] = file
        guard timer == nil else { return }
        timer = loop.addTimer(after: quietSeconds) { [weak self] in
            self?.timer = nil
            self?.lookAgain()
        }
    }

    private func lookAgain() {
        var released: [LibraryChange] = []
        let waiting = held
        held = [:]
        for (path, before) in waiting.sorted(by: { $0.key < $1.key }) {
            guard let info = try? FileSystemCalls.status(path.filePath, followingLinks: false), info.kind == .regular else {
                continue   // gone (or no longer a file): nothing to show
            }
            let current = ScannedFile(path: path, type: before.type, status: info, captureDate: before.captureDate)
            if let shown = listed(path), Self.sameVersion(shown, current) { continue }
            let isComplete = switch FileSystemCalls.isOpenForWriting(path.filePath) {
            case false?: true
            case true?: false
            case nil: Self.sameVersion(before, current)
            }
            if isComplete {
                released.append(.added(ScannedFile(path: path, type: before.type, status: info, captureDate: captureDate?(path))))
            } else {
                hold(current)
            }
        }
        if !released.isEmpty { onSettled(released) }
    }

    private func isRecent(_ file: ScannedFile, now: Int64) -> Bool {
        let modified = file.modificationSeconds &* 1_000_000_000 &+ file.modificationNanoseconds
        let age = now &- modified
        let window = Int64(recentSeconds * 1_000_000_000)
        // A time far ahead of the clock is no write of now (a camera's or server's clock).
        return age > -window && age < window
    }

    private static func sameVersion(_ a: ScannedFile, _ b: ScannedFile) -> Bool {
        a.size == b.size && a.modificationSeconds == b.modificationSeconds
            && a.modificationNanoseconds == b.modificationNanoseconds && a.identity == b.identity
    }
}

import Imaging
import Platform

/// The album's captions: each photo's own (PhotoDetails: EXIF ImageDescription or XPTitle, XMP
/// title or description, IPTC caption), read on a thread of its own the first time the album
/// asks, then kept. A photo without one has none (the caption is hidden), or, when
/// `library.file_name_captions` is on, its file name without the extension.
final class AlbumCaptions {
    private let mailbox: Mailbox
    private let usesFileNames: Bool
    /// Called on the loop thread with the photo whose caption was just read.
    var onRead: (RawPath) -> Void = { _ in }
    private var known: [RawPath: String?] = [:]
    private var knownOrder: [RawPath] = []
    private var reading: [RawPath: WorkerThread] = [:]
    /// Enough for the pages around the album's centre many times over.
    static let knownLimit = 256

    init(mailbox: Mailbox, usesFileNames: Bool) {
        self.mailbox = mailbox
        self.usesFileNames = usesFileNames
    }

    /// The caption if it has been read; nil meanwhile (a read starts) and for a photo without one.
    func caption(for path: RawPath) -> String? {
        if let caption = known[path] { return caption ?? fallback(for: path) }
        read(path)
        return nil
    }

    /// The file name without its extension ("Garden" for "Garden.jpg"), when configured.
    func fallback(for path: RawPath) -> String? {
        guard usesFileNames else { return nil }
        let name = String(decoding: path.lastComponent, as: UTF8.self)
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Forgets a photo's caption (its file changed or went away).
    func invalidate(_ path: RawPath) {
        known.removeValue(forKey: path)
    }

    private func read(_ path: RawPath) {
        guard reading[path] == nil else { return }
        let mailbox = self.mailbox
        let owner = WeakLoopBound(self, on: mailbox.thread)
        reading[path] = WorkerThread(name: "pk-caption") {
            let caption = PhotoDetails.read(path: path).caption
            mailbox.post { owner.value?.finishRead(path, caption) }
        }
    }

    private func finishRead(_ path: RawPath, _ caption: String?) {
        reading.removeValue(forKey: path)?.join()   // it has posted: only its return is left
        if known.updateValue(caption, forKey: path) == nil { knownOrder.append(path) }
        if knownOrder.count > Self.knownLimit { known.removeValue(forKey: knownOrder.removeFirst()) }
        onRead(path)
    }

    /// Whether a read is under way (what a settled screen waits for).
    var isReading: Bool { !reading.isEmpty }
}

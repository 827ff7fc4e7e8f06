import Imaging
import Platform

/// Which JPEGs carry a Motion Photo's video (Google's and Samsung's phones put an MP4 after the
/// JPEG and mark it in its XMP): each photo is looked into once for its file as it is, off the
/// loop, and again when the file changes. The album asks so a hold on such a photo plays its
/// motion, the slideshow so its slide plays the motion once.
final class MotionPhotoLookup {
    private struct Answer {
        /// The file as it was looked into: a changed file is a new question.
        let file: ScannedFile
        /// nil while the worker reads it.
        var found: Bool?
        var waiting: [(Bool) -> Void]
    }

    private var answers: [PhotoID: Answer] = [:]
    private let mailbox: Mailbox

    init(mailbox: Mailbox) {
        self.mailbox = mailbox
    }

    /// Whether `photo` is a Motion Photo: false for anything but a JPEG (or a Live Photo, whose
    /// motion is its own file), nil while its file has not been looked into.
    func hasVideo(_ photo: Photo) -> Bool? {
        guard Self.canBeMotionPhoto(photo) else { return false }
        guard let answer = answers[photo.id], answer.file == photo.file else { return nil }
        return answer.found
    }

    /// Looks into `photo` unless that is known or under way; `then` runs on the loop with the
    /// answer (at once when it is known).
    func look(into photo: Photo, then: @escaping (Bool) -> Void = { _ in }) {
        if let known = hasVideo(photo) {
            then(known)
            return
        }
        if var answer = answers[photo.id], answer.file == photo.file {
            answer.waiting.append(then)
            answers[photo.id] = answer
            return
        }
        answers[photo.id] = Answer(file: photo.file, found: nil, waiting: [then])
        let path = photo.path, id = photo.id, file = photo.file, mailbox = mailbox
        let owner = WeakLoopBound(self, on: mailbox.thread)
        WorkerThread.detached(name: "pk-motion-look") {
            let found = MotionPhotoClip.videoRange(in: path) != nil
            mailbox.post { owner.value?.answered(id, file: file, found: found) }
        }
    }

    private func answered(_ id: PhotoID, file: ScannedFile, found: Bool) {
        guard var answer = answers[id], answer.file == file else { return }   // the file changed meanwhile
        let waiting = answer.waiting
        answer.found = found
        answer.waiting = []
        answers[id] = answer
        for then in waiting { then(found) }
    }

    private static func canBeMotionPhoto(_ photo: Photo) -> Bool { photo.file.type == .jpeg && photo.motion == nil }
}

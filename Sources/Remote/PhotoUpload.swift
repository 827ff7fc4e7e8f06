import Imaging
import Logging
import PhotoKioskApp
import Platform
import RemoteServer

/// What an upload may cost: per photo, and the disk space that must stay free.
public struct UploadLimits: Sendable {
    public var maximumFileBytes: Int64
    public var reserveBytes: Int64
    /// Photos in one request at most.
    public var maximumFiles = 100

    public init(maximumFileBytes: Int64, reserveBytes: Int64) {
        self.maximumFileBytes = maximumFileBytes
        self.reserveBytes = reserveBytes
    }
}

/// Why one uploaded file was not kept; each maps to an HTTP status and a message for the page.
enum UploadRefusal: Error, Equatable {
    case notAPhoto(String)
    case tooLarge(limit: Int64)
    case noSpace(reserve: Int64)
    case tooManyFiles(Int)
    case incomplete
    case disk(String)
    case badName(String)
    case wrongExtension(named: String, actual: ImageFormat)

    var status: Int {
        switch self {
        case .notAPhoto, .wrongExtension: 415
        case .badName: 400
        case .tooLarge, .tooManyFiles: 413
        case .noSpace: 507
        case .incomplete: 400
        case .disk: 500
        }
    }

    var message: String {
        switch self {
        case .notAPhoto(let why): "not a photo the kiosk can show: \(why)"
        case .tooLarge(let limit): "larger than the limit of \(limit >> 20) MB per photo"
        case .noSpace(let reserve): "not enough disk space: \(reserve >> 20) MB must stay free in the upload folder"
        case .tooManyFiles(let n): "more than \(n) photos in one upload"
        case .incomplete: "the upload did not arrive complete"
        case .disk(let why): "could not be written: \(why)"
        case .badName(let why): "refused: \(why)"
        case .wrongExtension(let named, let actual): "its name ends in .\(named) but it is a \(actual) image; rename it (or leave the extension off)"
        }
    }
}

/// Streams the photos of one multipart upload into the upload folder: each file part goes to
/// a temporary file as it arrives, its first bytes must be a photo format, its size stays under
/// the limit and the disk keeps its reserve; at the end of the part its header is probed as the
/// kiosk would, and only then is it synced and renamed to its safe, unused name. A refused or
/// cut part leaves nothing behind. Answers with one JSON line per file.
///
/// Chunks are written on the loop thread (into the page cache); the end of a part (probe, fsync,
/// rename, folder fsync), which can take a second on an SD card, runs on a worker thread, and the
/// answer waits for all of them.
final class PhotoUpload: HTTPFormReceiver {
    private struct Part {
        var clientName: [UInt8]
        var file: UploadFile?
        var head: [UInt8] = []
        var received: Int64 = 0
        var refusal: UploadRefusal?
    }

    private struct Outcome {
        var clientName: [UInt8]
        var result: Result<(name: [UInt8], bytes: Int64), UploadRefusal>
    }

    /// An upload file handed to the worker that finishes it; the loop no longer touches it.
    private struct Handoff: @unchecked Sendable {
        let file: UploadFile
    }

    private let folder: UploadFolder
    private let limits: UploadLimits
    private let mailbox: Mailbox
    private let logger: Logger
    private var part: Part?
    private var partsStarted = 0
    /// In the order the parts arrived; nil while a part is being finished on a worker.
    private var outcomes: [Outcome?] = []
    private var finishing: [Int: WorkerThread] = [:]
    private var waiting: (responder: HTTPResponder, complete: Bool)?

    init(folder: UploadFolder, limits: UploadLimits, mailbox: Mailbox, logger: Logger) {
        self.folder = folder
        self.limits = limits
        self.mailbox = mailbox
        self.logger = logger
    }

    deinit { for worker in finishing.values { worker.join() } }

    func receiveFile(field: String, fileName: [UInt8], contentType: String?, offset: UInt64, bytes: UnsafeRawBufferPointer) {
        if offset == 0, part == nil || part!.received > 0 || part!.clientName != fileName {
            endPart()
            startPart(fileName)
        }
        guard var current = part else { return }
        defer { part = current }
        guard current.refusal == nil, bytes.count > 0 else { return }
        current.received += Int64(bytes.count)
        if current.received > limits.maximumFileBytes {
            refuse(&current, .tooLarge(limit: limits.maximumFileBytes))
            return
        }
        if let available = folder.availableBytes(), available - Int64(bytes.count) < limits.reserveBytes {
            refuse(&current, .noSpace(reserve: limits.reserveBytes))
            return
        }
        if current.head.count < 16 {
            current.head += bytes.prefix(16 - current.head.count)
            if current.head.count == 16, ImageFormat.sniff(current.head) == nil {
                refuse(&current, .notAPhoto("its first bytes are not \(ImageFormat.supportedList)"))
                return
            }
        }
        do throws(UploadFileError) {
            try current.file?.write(bytes)
        } catch {
            refuse(&current, .disk(error.description))
        }
    }

    func receiveField(name: String, offset: UInt64, bytes: UnsafeRawBufferPointer) {}

    func finish(complete: Bool, responder: HTTPResponder) {
        if complete {
            endPart()
        } else if var current = part {
            refuse(&current, .incomplete)
            part = current
            endPart()
        }
        waiting = (responder, complete)
        answerWhenFinished()
    }

    private func answerWhenFinished() {
        guard finishing.isEmpty, let waiting else { return }
        self.waiting = nil
        waiting.responder.respond(response(complete: waiting.complete))
    }

    func abandon() {
        if var current = part {
            refuse(&current, .incomplete)
            logger.notice("upload of \(String(lossyBytes: current.clientName)) was cut off; nothing kept")
        }
        part = nil
    }

    // MARK: Parts

    private func startPart(_ clientName: [UInt8]) {
        var new = Part(clientName: clientName)
        partsStarted += 1
        if partsStarted > limits.maximumFiles {
            new.refusal = .tooManyFiles(limits.maximumFiles)
        } else if let why = UploadName.refusal(clientName) {
            new.refusal = .badName(why)
        } else {
            do throws(UploadFileError) {
                new.file = try folder.newFile()
            } catch {
                new.refusal = .disk(error.description)
            }
        }
        part = new
    }

    /// The part is complete: a refused one is answered as such; a good one is probed and kept
    /// on a worker thread.
    private func endPart() {
        guard var current = part else { return }
        part = nil
        let index = outcomes.count
        guard current.refusal == nil, let file = current.file else {
            refuse(&current, current.refusal ?? .incomplete)
            outcomes.append(Outcome(clientName: current.clientName, result: .failure(current.refusal ?? .incomplete)))
            return
        }
        outcomes.append(nil)
        let handoff = Handoff(file: file)
        let clientName = current.clientName
        let received = current.received
        let mailbox = self.mailbox
        let owner = WeakLoopBound(self, on: mailbox.thread)
        finishing[index] = WorkerThread(name: "pk-upload-keep") {
            let result = Self.keep(handoff.file, clientName: clientName)
            mailbox.post { owner.value?.finished(index: index, clientName: clientName, bytes: received, result: result) }
        }
    }

    /// Probe, then fsync and rename to a free safe name (worker thread).
    private static func keep(_ file: UploadFile, clientName: [UInt8]) -> Result<[UInt8], UploadRefusal> {
        do throws(UploadRefusal) {
            let format = try probe(file)
            let safe = UploadName.safe(clientName, format: format)
            // The extension must say what the content is: the kiosk decodes by content, but
            // people, other programs and the next copy of the folder go by the name.
            if let named = PhotoFileType(fileName: safe), !UploadName.extension(named, fits: format) {
                throw .wrongExtension(named: String(lossyBytes: Array(UploadName.split(safe).1.dropFirst())), actual: format)
            }
            do throws(UploadFileError) {
                return .success(try file.keep { UploadName.candidate(safe, attempt: $0) })
            } catch {
                throw .disk(error.description)
            }
        } catch {
            file.discard()
            return .failure(error)
        }
    }

    private func finished(index: Int, clientName: [UInt8], bytes: Int64, result: Result<[UInt8], UploadRefusal>) {
        finishing.removeValue(forKey: index)?.join()
        switch result {
        case .success(let name):
            logger.info("uploaded \(String(lossyBytes: name)) (\(bytes) bytes) into \(folder.path)")
            outcomes[index] = Outcome(clientName: clientName, result: .success((name, bytes)))
        case .failure(let refusal):
            outcomes[index] = Outcome(clientName: clientName, result: .failure(refusal))
        }
        answerWhenFinished()
    }

    private static func probe(_ file: UploadFile) throws(UploadRefusal) -> ImageFormat {
        guard file.byteCount > 0 else { throw .notAPhoto("the file is empty") }
        let info: ImageInfo
        do throws(ImagingError) {
            info = try ImageDecoder.probe(path: RawPath(bytes: file.temporaryPathBytes))
        } catch {
            throw .notAPhoto(error.message)
        }
        guard info.pixelCount <= DecodeOptions.default.maxPixels else {
            throw .notAPhoto("\(info.pixelWidth) x \(info.pixelHeight) pixels is more than the kiosk decodes")
        }
        return info.format
    }

    private func refuse(_ current: inout Part, _ refusal: UploadRefusal) {
        if current.refusal == nil { current.refusal = refusal }
        current.file?.discard()
        current.file = nil
    }

    // MARK: Answer

    private func response(complete: Bool) -> HTTPResponse {
        let outcomes = self.outcomes.compactMap { $0 }
        let saved = outcomes.compactMap { outcome -> JSONValue? in
            guard case .success(let kept) = outcome.result else { return nil }
            return .object([("name", .string(String(lossyBytes: kept.name))), ("bytes", .integer(kept.bytes)),
                            ("url", .string("/api/photos/" + percentEncoded(kept.name)))])
        }
        let refusals = outcomes.compactMap { outcome -> (JSONValue, UploadRefusal)? in
            guard case .failure(let refusal) = outcome.result else { return nil }
            return (.object([("name", .string(String(lossyBytes: outcome.clientName))), ("error", .string(refusal.message))]), refusal)
        }
        // Where they went: the upload folder may be a fallback when the photo folders are read-only.
        var members: [(String, JSONValue)] = [("saved", .array(saved)), ("refused", .array(refusals.map(\.0))), ("folder", .string(folder.path))]
        let status: Int
        if outcomes.isEmpty {
            status = 400
            members.insert(("error", .string(complete ? "no photo in the upload: send multipart/form-data with a file field" : UploadRefusal.incomplete.message)), at: 0)
        } else if refusals.isEmpty {
            status = 201
        } else if saved.isEmpty {
            status = refusals[0].1.status
            members.insert(("error", .string(refusals.count == 1 ? refusals[0].1.message : "no photo was kept")), at: 0)
        } else {
            status = 207
        }
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: JSONValue.object(members).bytes)
    }
}

import Imaging
import Logging
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

    var status: Int {
        switch self {
        case .notAPhoto: 415
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
        }
    }
}

/// Streams the photos of one multipart upload into the upload folder: each file part goes to
/// a temporary file as it arrives, its first bytes must be a photo format, its size stays under
/// the limit and the disk keeps its reserve; at the end of the part its header is probed as the
/// kiosk would, and only then is it synced and renamed to its safe, unused name. A refused or
/// cut part leaves nothing behind. Answers with one JSON line per file.
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

    private let folder: UploadFolder
    private let limits: UploadLimits
    private let logger: Logger
    private var part: Part?
    private var outcomes: [Outcome] = []

    init(folder: UploadFolder, limits: UploadLimits, logger: Logger) {
        self.folder = folder
        self.limits = limits
        self.logger = logger
    }

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
                refuse(&current, .notAPhoto("its first bytes are not JPEG or PNG"))
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
        responder.respond(response(complete: complete))
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
        if outcomes.count >= limits.maximumFiles {
            new.refusal = .tooManyFiles(limits.maximumFiles)
        } else {
            do throws(UploadFileError) {
                new.file = try folder.newFile()
            } catch {
                new.refusal = .disk(error.description)
            }
        }
        part = new
    }

    /// The part is complete: probe it, then keep it under its safe name.
    private func endPart() {
        guard var current = part else { return }
        part = nil
        if current.refusal == nil, let file = current.file {
            do throws(UploadRefusal) {
                let format = try probe(file)
                let safe = UploadName.safe(current.clientName, format: format)
                do throws(UploadFileError) {
                    let name = try file.keep { UploadName.candidate(safe, attempt: $0) }
                    current.file = nil
                    logger.info("uploaded \(String(lossyBytes: name)) (\(current.received) bytes) into \(folder.path)")
                    outcomes.append(Outcome(clientName: current.clientName, result: .success((name, current.received))))
                    return
                } catch {
                    throw .disk(error.description)
                }
            } catch {
                refuse(&current, error)
            }
        }
        outcomes.append(Outcome(clientName: current.clientName, result: .failure(current.refusal ?? .incomplete)))
    }

    private func probe(_ file: UploadFile) throws(UploadRefusal) -> ImageFormat {
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
        let saved = outcomes.compactMap { outcome -> JSON? in
            guard case .success(let kept) = outcome.result else { return nil }
            return .object([("name", .string(String(lossyBytes: kept.name))), ("bytes", .int(kept.bytes)),
                            ("url", .string("/api/photos/" + percentEncoded(kept.name)))])
        }
        let refusals = outcomes.compactMap { outcome -> (JSON, UploadRefusal)? in
            guard case .failure(let refusal) = outcome.result else { return nil }
            return (.object([("name", .string(String(lossyBytes: outcome.clientName))), ("error", .string(refusal.message))]), refusal)
        }
        var members: [(String, JSON)] = [("saved", .array(saved)), ("refused", .array(refusals.map(\.0)))]
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
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: JSON.object(members).bytes)
    }
}

import Graphics
import Imaging
import Platform
import RemoteServer

/// `GET /api/screen.png`: the frame is copied on the loop thread (a memcpy), then encoded on a
/// worker so the loop keeps drawing; requests that arrive while one encode runs share its PNG.
final class ScreenEncoder {
    private let loop: EventLoop
    private var waiting: [HTTPResponder] = []
    private var worker: WorkerThread?

    init(loop: EventLoop) { self.loop = loop }

    deinit { worker?.join() }

    func encode(_ frame: Bitmap, for responder: HTTPResponder) {
        waiting.append(responder)
        guard worker == nil else { return }
        let copy = frame.copy()
        let done = WeakLoopBound(self, on: loop.thread)
        let mailbox = loop.mailbox
        worker = WorkerThread(name: "pk-screen-png") {
            let png: [UInt8]? = try? PNGEncoder.encode(copy, compression: 1)
            mailbox.post { done.value?.deliver(png) }
        }
    }

    private func deliver(_ png: [UInt8]?) {
        worker?.join()
        worker = nil
        let response = png.map {
            HTTPResponse(status: 200, headers: [("Content-Type", "image/png"), ("Cache-Control", "no-store")], body: $0)
        } ?? RemoteAPI.error(500, "the screen could not be encoded as PNG")
        let responders = waiting
        waiting = []
        for responder in responders { responder.respond(response) }
    }
}

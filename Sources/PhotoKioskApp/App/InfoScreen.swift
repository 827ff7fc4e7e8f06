import Graphics
import Imaging
import Logging
import Platform
import UI
import Widgets

/// The frame's own details, opened by holding a finger in a corner (`CornerHold`): how many
/// photos from where, and, with the remote page on, the QR code that signs a phone in (the
/// address with the pairing token). The screen is the trust anchor: whoever can see it may pair
/// a phone, as with TVs and streaming sticks. "New code" replaces the token, which signs out
/// every phone; "Close" (or Escape) goes back.
final class InfoScreen {
    private let host: ScreenHost
    private let logger: Logger
    private(set) var view: NoticeScreenView?
    var metrics: () -> ChromeMetrics = { ChromeMetrics() }
    /// What the screen says about the library (a line or two).
    var libraryLines: () -> [String] = { [] }
    /// Makes a new token and returns the new offer; nil while the remote page is off.
    var makeNewCode: (() -> PairingOffer?)?
    var pairing: PairingOffer? {
        didSet {
            guard pairing != oldValue else { return }
            pairingCode = pairing.flatMap { offer in
                do { return try QRCodeEncoder.encode(offer.url) } catch {
                    logger.warning("pairing code not shown: \(error)")
                    return nil
                }
            }
            if view != nil { refresh() }
        }
    }
    private var pairingCode: QRModules?

    static let title = "This frame"

    init(host: ScreenHost, logger: Logger) {
        self.host = host
        self.logger = logger
    }

    var isShown: Bool { view != nil }

    func show() {
        let view = self.view ?? NoticeScreenView(frame: host.window.bounds, title: Self.title, paragraphs: [])
        if self.view == nil {
            self.view = view
            host.window.addSubview(view)
            logger.notice("info screen opened")
        }
        refresh()
        host.window.bringSubviewToFront(view)
    }

    func close() {
        view?.removeFromSuperview()
        view = nil
    }

    func resize(to size: Size) {
        view?.frame = Rect(size: size)
        view?.metrics = metrics()
    }

    private func refresh() {
        guard let view else { return }
        view.metrics = metrics()
        var paragraphs = libraryLines()
        if let pairing {
            paragraphs.append("Scan the code with a phone's camera to open the remote page, signed in: send photos, skip, pause.")
            paragraphs.append("Only someone who can see this screen can do that. New code signs out every phone.")
            view.codeCaption = ["or open \(pairing.address)"]
        } else {
            paragraphs.append("The remote page is off: set [remote] listen in /etc/photokiosk/config.toml to send photos from a phone.")
            view.codeCaption = []
        }
        view.paragraphs = paragraphs
        view.code = pairingCode
        var actions: [NoticeScreenView.Action] = []
        if pairing != nil, makeNewCode != nil {
            actions.append(.init(title: "New code") { [weak self] in self?.newCode() })
        }
        actions.append(.init(title: "Close") { [weak self] in self?.close() })
        view.actions = actions
    }

    private func newCode() {
        guard let makeNewCode, let offer = makeNewCode() else { return }
        logger.notice("info screen: a new pairing code; every phone is signed out")
        pairing = offer
    }
}

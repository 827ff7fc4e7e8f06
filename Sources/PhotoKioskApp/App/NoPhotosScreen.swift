import Graphics
import Imaging
import Logging
import Platform
import UI
import Widgets

/// Never a blank screen: while the library has no photo, a screen over the grid says why, folder
/// by folder, and what to do (`EmptyLibraryDiagnosis`), with the remote page's address and QR
/// code when the page is on. It looks again every few seconds while shown, and asks for a rescan
/// when a folder's state changes (made readable, mounted), so photos appear without a restart.
final class NoPhotosScreen {
    private let host: ScreenHost
    private let folders: [String]
    private let logger: Logger
    /// Asks the library to scan again (a folder became readable or appeared).
    var rescan: () -> Void = {}
    /// How big words and the code are drawn (the screen's chrome metrics).
    var metrics: () -> ChromeMetrics = { ChromeMetrics() }
    /// Looks at the folders: the real file system unless a test says otherwise.
    var examine: ([String]) -> EmptyLibraryDiagnosis = { EmptyLibraryDiagnosis.examine($0) }
    private(set) var view: NoticeScreenView?
    private(set) var diagnosis: EmptyLibraryDiagnosis?
    private var recheckTimer: EventLoop.TimerID?
    /// Seconds between looks while shown (tests shorten it).
    var recheckInterval = 5.0
    var pairing: PairingOffer? {
        didSet { if pairing != oldValue { refreshPairing() } }
    }
    private var pairingCode: QRModules?

    static let title = "No photos yet"

    init(host: ScreenHost, folders: [String], logger: Logger) {
        self.host = host
        self.folders = folders
        self.logger = logger
    }

    var isShown: Bool { view != nil }

    /// Shows the screen when there is nothing to show, removes it when there is.
    func update(hasPhotos: Bool) {
        if hasPhotos {
            hide()
        } else {
            show()
        }
    }

    private func show() {
        let diagnosis = examine(folders)
        if view == nil || diagnosis != self.diagnosis {
            logger.notice("no photos to show: \(diagnosis.problems.joined(separator: " "))")
        }
        self.diagnosis = diagnosis
        let view = self.view ?? NoticeScreenView(frame: host.window.bounds, title: Self.title, paragraphs: [])
        view.metrics = metrics()
        view.paragraphs = paragraphs(for: diagnosis)
        view.code = pairingCode
        view.codeCaption = pairing.map { ["Scan to send photos from a phone,", "or open \($0.address)"] } ?? []
        if self.view == nil {
            self.view = view
            host.window.addSubview(view)
        } else if host.window.subviews.last !== view {
            host.window.bringSubviewToFront(view)
        }
        scheduleRecheck()
    }

    private func paragraphs(for diagnosis: EmptyLibraryDiagnosis) -> [String] {
        var paragraphs = diagnosis.problems + diagnosis.advice
        if pairing != nil, pairingCode == nil, let pairing {
            paragraphs.append("Send photos from a phone: open \(pairing.address)")
        }
        return paragraphs
    }

    private func hide() {
        if let recheckTimer { host.loop.cancelTimer(recheckTimer) }
        recheckTimer = nil
        view?.removeFromSuperview()
        view = nil
        diagnosis = nil
    }

    func resize(to size: Size) {
        view?.frame = Rect(size: size)
        view?.metrics = metrics()
    }

    /// Keeps the screen in front of screens opened after it (the slideshow over an empty library).
    func bringToFront() {
        if let view, host.window.subviews.last !== view { host.window.bringSubviewToFront(view) }
    }

    private func scheduleRecheck() {
        guard recheckTimer == nil else { return }
        recheckTimer = host.loop.addTimer(after: recheckInterval) { [weak self] in
            guard let self else { return }
            self.recheckTimer = nil
            guard self.view != nil else { return }
            let before = self.diagnosis
            self.show()
            if before != self.diagnosis { self.rescan() }
        }
    }

    private func refreshPairing() {
        pairingCode = nil
        if let pairing {
            do {
                pairingCode = try QRCodeEncoder.encode(pairing.url)
            } catch {
                logger.warning("pairing code not shown: \(error)")
            }
        }
        if view != nil { show() }
    }
}

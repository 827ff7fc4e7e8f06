import CDRM
import Glibc
import Graphics
import Logging
import SystemPackage

/// What to drive on a DRM device.
public struct DRMConfiguration: Sendable {
    /// A card node such as "/dev/dri/card1"; nil picks the first card with KMS.
    public var devicePath: String?
    /// A connector such as "HDMI-A-1"; nil picks the first connected one.
    public var connectorName: String?
    /// A mode such as 1280x800; nil uses the screen's preferred mode.
    public var mode: ModeRequest?
    public var rotation: Rotation
    /// Where card nodes live (tests point this elsewhere).
    public var deviceDirectory: String
    /// False draws into the visible buffer and calls drmModeDirtyFB instead of page flipping
    /// (what drivers without page flip get automatically). By default it is true unless the
    /// environment variable PHOTOKIOSK_DRM_NO_PAGEFLIP is set (to any value, even 0): an escape
    /// hatch for odd drivers, read once when the configuration is made.
    public var pageFlip: Bool

    public init(devicePath: String? = nil, connectorName: String? = nil, mode: ModeRequest? = nil,
                rotation: Rotation = .none, deviceDirectory: String = "/dev/dri",
                pageFlip: Bool = getenv("PHOTOKIOSK_DRM_NO_PAGEFLIP") == nil) {
        self.devicePath = devicePath
        self.connectorName = connectorName
        self.mode = mode
        self.rotation = rotation
        self.deviceDirectory = deviceDirectory
        self.pageFlip = pageFlip
    }
}

/// A DRM/KMS screen: two XRGB8888 dumb buffers, one modeset, then page flips paced by vblank.
///
/// The app draws into `frameBuffer` (cached memory, logical orientation); `present` copies only
/// the rectangles the back buffer lacks (this frame's and the previous frame's damage), rotated,
/// and flips. Drivers without page flip get front-buffer copies plus drmModeDirtyFB. Survives a
/// screen being unplugged and plugged again (udev "drm" events) and losing DRM master (VT
/// switch): drawing pauses, and comes back with a full redraw.
///
/// The card is opened through libseat when a seat is available (see `DeviceOpener`): the seat's
/// disable/enable events pause drawing and bring it back. Otherwise it is opened directly: the
/// user needs the `video` group (or `render` on some systems) and must be on the active VT.
public final class DRMDisplay: Display {
    private enum State: Equatable {
        case waitingForScreen(String)
        case active
        case notMaster
    }

    /// The screen currently driven: connector, mode, CRTC and the two scanout buffers.
    private final class Output {
        let connector: ConnectorInfo
        let mode: ModeInfo
        let crtcID: UInt32
        let buffers: [DumbBuffer]
        let copiers: [ScanoutCopier]
        var damage: DamageTracker
        var front = 0
        var back: Int { 1 - front }

        init(connector: ConnectorInfo, mode: ModeInfo, crtcID: UInt32, buffers: [DumbBuffer],
             copiers: [ScanoutCopier], logicalBounds: PixelRect) {
            self.connector = connector
            self.mode = mode
            self.crtcID = crtcID
            self.buffers = buffers
            self.copiers = copiers
            damage = DamageTracker(bufferCount: buffers.count, bounds: logicalBounds)
        }
    }

    public let configuration: DRMConfiguration
    public private(set) var frameBuffer: Bitmap
    private let card: DRMCard
    private let log: Logger
    private let dispatcher = DRMEventDispatcher()
    private var output: Output?
    private var state: State
    private var flipPending = false
    private var deferredDamage = false
    private var usesPageFlip = true
    private var saved: (crtc: UnsafeMutablePointer<drmModeCrtc>, connectorID: UInt32)?
    private var loop: (any EventLoopRegistry)?
    private var onEvent: ((DisplayEvent) -> Void)?
    private var hotplug: UdevMonitor?
    private var masterRetry: EventLoop.TimerID?
    private var seatObserver: Int?
    private var closed = false
    /// False until the first modeset succeeded: master missing then means another program
    /// had the screen before us, not that it was taken away.
    private var hasShownFrames = false
    /// DPMS off (see DRMDisplay+ScreenPower): no page flips until it is on again.
    var isPoweredOff = false

    /// Opens the card and sets the mode on the chosen screen. With no screen connected it
    /// waits for one (after `attach`) instead of failing. Throws when there is no DRM device
    /// or it may not be opened (the error names the missing group).
    public init(configuration: DRMConfiguration = DRMConfiguration(),
                logger: Logger = Logger(label: "photokiosk.drm")) throws(PlatformError) {
        self.configuration = configuration
        log = logger
        card = try DRMCard.open(path: configuration.devicePath, directory: configuration.deviceDirectory)
        let placeholder = configuration.mode ?? ModeRequest(width: 1280, height: 720)
        let logical = configuration.rotation.logicalSize(deviceWidth: placeholder.width, deviceHeight: placeholder.height)
        frameBuffer = Bitmap(width: logical.width, height: logical.height)
        state = .waitingForScreen("not set up yet")
        usesPageFlip = configuration.pageFlip
        dispatcher.onPageFlip = { [unowned self] _, _ in self.pageFlipped() }
        if let seat = card.opener.seat {
            seatObserver = seat.addObserver(pause: { [weak self] in self?.lostMaster() },
                                            resume: { [weak self] in self?.retryMaster() })
        }
        try activate()
    }

    deinit { close() }

    public var name: String {
        let device = "DRM \(card.path.split(separator: "/").last.map(String.init) ?? card.path) (\(card.driver))"
        switch state {
        case .waitingForScreen(let why): return "\(device) waiting: \(why)"
        case .notMaster: return "\(device) (not DRM master)"
        case .active:
            guard let output else { return device }
            let rotated = configuration.rotation == .none ? "" : " rotated \(configuration.rotation)"
            return "\(device) \(output.connector.name) \(output.mode.width)x\(output.mode.height)@\(output.mode.refresh)\(rotated)"
                + (usesPageFlip ? "" : " (front buffer + DirtyFB)")
        }
    }

    public var size: Size { frameBuffer.size }

    public var physicalSize: Size? {
        guard let millimetres = output?.connector.physicalSize else { return nil }
        return configuration.rotation.swapsAxes ? Size(width: millimetres.height, height: millimetres.width) : millimetres
    }
    public var isReadyForFrame: Bool { state == .active && output != nil && !flipPending && !isPoweredOff }
    /// The file descriptor of the card, for `doctor` output and tests.
    public var fileDescriptor: Int32 { card.fd }
    /// The connector being driven, if any (for DPMS).
    var activeConnector: (id: UInt32, name: String)? { output.map { ($0.connector.id, $0.connector.name) } }

    /// Shows what was drawn while the screen was off.
    func presentDeferred() {
        if deferredDamage { try? present(damage: []) }
    }

    // MARK: Modeset

    /// Picks connector, mode and CRTC, allocates the buffers and sets the mode. Returns false
    /// when no screen is connected (state becomes waiting).
    @discardableResult
    private func activate() throws(PlatformError) -> Bool {
        let resources = card.probe()
        guard let connector = OutputChoice.connector(in: resources.connectors, named: configuration.connectorName) else {
            let what = configuration.connectorName.map { "connector \($0) not connected" } ?? "no screen connected"
            let names = resources.connectors.map { "\($0.name)\($0.isConnected ? "" : " (disconnected)")" }
            state = .waitingForScreen("\(what) [\(names.joined(separator: ", "))]")
            log.notice("\(name)")
            return false
        }
        guard let mode = OutputChoice.mode(in: connector.modes, request: configuration.mode) else {
            throw .noUsableOutput("\(connector.name) has no mode \(configuration.mode?.description ?? "?"); "
                + "it offers \(connector.modes.map(\.description).joined(separator: ", "))")
        }
        guard let crtcID = OutputChoice.crtc(for: connector, encoders: resources.encoders, crtcIDs: resources.crtcIDs) else {
            throw .noUsableOutput("no CRTC can drive \(connector.name)")
        }
        let rotation = configuration.rotation
        let logical = rotation.logicalSize(deviceWidth: mode.width, deviceHeight: mode.height)
        if frameBuffer.width != logical.width || frameBuffer.height != logical.height {
            frameBuffer = Bitmap(width: logical.width, height: logical.height)
        }
        let buffers = [try DumbBuffer(fd: card.fd, width: mode.width, height: mode.height),
                       try DumbBuffer(fd: card.fd, width: mode.width, height: mode.height)]
        let copiers = buffers.map {
            ScanoutCopier(frameBuffer: frameBuffer, memory: $0.memory, deviceWidth: mode.width,
                          deviceHeight: mode.height, stride: $0.stride, format: .xrgb8888, rotation: rotation)
        }
        let output = Output(connector: connector, mode: mode, crtcID: crtcID, buffers: buffers, copiers: copiers,
                            logicalBounds: frameBuffer.bounds)
        if saved == nil, let current = drmModeGetCrtc(card.fd, crtcID) {
            saved = (current, connector.id)
        }
        self.output = output
        flipPending = false
        if try setCRTC(output) {
            state = .active
            hasShownFrames = true
            log.info("\(name)")
            keepBlankAfterModeset()
        }
        return true
    }

    /// Copies the whole frame into the front buffer and sets the mode with it. Returns false
    /// (state `.notMaster`) when another program owns the display.
    private func setCRTC(_ output: Output) throws(PlatformError) -> Bool {
        output.damage.invalidateAll()
        output.copiers[output.front].copy(output.damage.take(for: output.front))
        var connectorID = output.connector.id
        var mode = output.mode.raw
        let r = drmModeSetCrtc(card.fd, output.crtcID, output.buffers[output.front].framebufferID, 0, 0,
                               &connectorID, 1, &mode)
        if r == 0 { return true }
        let err = r < -1 ? -r : errno
        if err == EACCES || err == EPERM {
            lostMaster()
            return false
        }
        throw .failed("drmModeSetCrtc \(output.connector.name) \(output.mode)", errno: err)
    }

    // MARK: Frames

    public func present(damage: [PixelRect]) throws {
        guard let output else { return }
        output.damage.add(damage)
        guard isReadyForFrame else {
            if !damage.isEmpty { deferredDamage = true }
            return
        }
        deferredDamage = false
        guard usesPageFlip else { return presentInFrontBuffer(output) }
        let back = output.back
        let rects = output.damage.take(for: back)
        guard !rects.isEmpty else { return }
        output.copiers[back].copy(rects)
        let r = drmModePageFlip(card.fd, output.crtcID, output.buffers[back].framebufferID,
                                UInt32(DRM_MODE_PAGE_FLIP_EVENT), dispatcher.userData)
        if r == 0 {
            flipPending = true
            return
        }
        let err = r < -1 ? -r : errno
        output.damage.add(rects)    // the back buffer did not reach the screen; keep its damage
        switch err {
        case EACCES, EPERM:
            lostMaster()
        case EBUSY:
            deferredDamage = true
        default:
            log.warning("page flip failed (\(String(cString: strerror(err)))): drawing into the front buffer with DirtyFB")
            usesPageFlip = false
            presentInFrontBuffer(output)
        }
    }

    /// For drivers without page flip: copy into the visible buffer and tell the driver which
    /// parts changed (virtio-gpu shows CPU writes only after DirtyFB; bochs answers ENOSYS).
    private func presentInFrontBuffer(_ output: Output) {
        let landed = output.copiers[output.front].copy(output.damage.take(for: output.front))
        guard !landed.isEmpty else { return }
        var clips = landed.map {
            drm_clip_rect(x1: UInt16($0.x), y1: UInt16($0.y), x2: UInt16($0.maxX), y2: UInt16($0.maxY))
        }
        _ = drmModeDirtyFB(card.fd, output.buffers[output.front].framebufferID, &clips, UInt32(clips.count))
        // Reported from the loop, not from inside present(), so a handler may present again.
        loop?.addTimer(after: 0) { [weak self] in self?.onEvent?(.frameDone) }
    }

    private func pageFlipped() {
        guard flipPending, let output else { return }
        flipPending = false
        output.front = output.back
        if deferredDamage { try? present(damage: []) }
        onEvent?(.frameDone)
    }

    // MARK: Events

    public func attach(to loop: any EventLoopRegistry, onEvent: @escaping (DisplayEvent) -> Void) throws {
        self.loop = loop
        self.onEvent = onEvent
        let fd = card.fd
        try loop.watch(FileDescriptor(rawValue: fd)) { [unowned self] in self.dispatcher.dispatch(fd: fd) }
        if let monitor = UdevMonitor(subsystem: "drm") {
            hotplug = monitor
            try loop.watch(FileDescriptor(rawValue: monitor.fd)) { [unowned self] in
                _ = monitor.drain()
                self.screensChanged()
            }
        } else {
            log.warning("no udev monitor: screens plugged in later will not be noticed")
        }
        try card.opener.seat?.attach(to: loop)
        if state == .notMaster { scheduleMasterRetry() }
    }

    /// A udev "drm" event: a screen was plugged in, unplugged, or changed.
    private func screensChanged() {
        let connectors = card.probe().connectors
        let current = output.map { (connectorID: $0.connector.id, width: $0.mode.width, height: $0.mode.height) }
        let change = OutputChoice.change(current: current, connectors: connectors,
                                         connectorName: configuration.connectorName, mode: configuration.mode)
        log.debug("screens changed: \(change)")
        switch change {
        case .keep, .keepWaiting:
            return
        case .disconnected:
            let name = output?.connector.name ?? "screen"
            if let output { switchOff(output) }
            output = nil
            flipPending = false
            state = .waitingForScreen("\(name) disconnected")
            log.notice("screen \(name) disconnected: drawing paused until a screen is connected")
            onEvent?(.suspended("\(name) disconnected"))
        case .remodeset, .connect:
            let wasWaiting = output == nil
            output = nil
            flipPending = false
            do {
                if try activate(), state == .active {
                    if wasWaiting { log.notice("screen connected: \(name), full redraw") }
                    onEvent?(.needsFullRedraw)
                }
            } catch {
                state = .waitingForScreen(error.description)
                log.error("\(error)")
            }
        }
    }

    /// Stops scanning out to a screen that is gone: its CRTC goes dark and is free for the
    /// next modeset, and the buffers can be freed without the kernel clinging to them.
    private func switchOff(_ output: Output) {
        guard state == .active else { return }
        if drmModeSetCrtc(card.fd, output.crtcID, 0, 0, 0, nil, 0, nil) != 0 {
            log.warning("could not switch off CRTC \(output.crtcID): \(String(cString: strerror(errno)))")
        }
    }

    private func lostMaster() {
        guard state != .notMaster else { return }
        state = .notMaster
        flipPending = false
        if hasShownFrames {
            log.notice("lost DRM master (VT switch or another program): drawing paused")
        } else {
            log.notice("another program is DRM master of \(card.path) (a compositor, another kiosk): waiting for it to let go of the screen")
        }
        onEvent?(.suspended("DRM master lost"))
        scheduleMasterRetry()
    }

    /// Without a seat manager there is no notification when the display is free again, so try
    /// once a second while (and only while) it is not ours. With a seat, enable_seat says when.
    private func scheduleMasterRetry() {
        guard let loop, masterRetry == nil, card.opener.seat == nil else { return }
        masterRetry = loop.addTimer(after: 1) { [unowned self] in
            self.masterRetry = nil
            self.retryMaster()
        }
    }

    private func retryMaster() {
        guard state == .notMaster, !closed else { return }
        log.debug("trying to become DRM master again")
        if card.opener.seat == nil { _ = drmSetMaster(card.fd) }   // the seat manager does it otherwise
        guard let output else {
            state = .waitingForScreen("regained DRM master")
            return screensChanged()
        }
        do {
            if try setCRTC(output) {
                state = .active
                keepBlankAfterModeset()
                log.notice(hasShownFrames ? "regained DRM master: full redraw" : "became DRM master: \(name)")
                hasShownFrames = true
                onEvent?(.needsFullRedraw)
                return
            }
        } catch {
            log.error("\(error)")
        }
        state = .notMaster
        scheduleMasterRetry()
    }

    // MARK: Cleanup

    public func close() {
        guard !closed else { return }
        closed = true
        if let loop {
            loop.unwatch(FileDescriptor(rawValue: card.fd))
            if let hotplug { loop.unwatch(FileDescriptor(rawValue: hotplug.fd)) }
            if let masterRetry { loop.cancelTimer(masterRetry) }
        }
        if let seatObserver { card.opener.seat?.removeObserver(seatObserver) }
        if let saved {
            var connectorID = saved.connectorID
            let c = saved.crtc.pointee
            var mode = c.mode
            if c.mode_valid != 0 && c.buffer_id != 0 {
                _ = drmModeSetCrtc(card.fd, c.crtc_id, c.buffer_id, c.x, c.y, &connectorID, 1, &mode)
            }
            drmModeFreeCrtc(saved.crtc)
            self.saved = nil
        }
        output = nil
        card.close()
    }
}

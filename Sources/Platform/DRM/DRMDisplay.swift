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
    /// False never puts a clip on an overlay plane (see `VideoPlane`): by default true unless
    /// PHOTOKIOSK_DRM_NO_VIDEO_PLANE is set, the same kind of escape hatch for a driver whose
    /// overlay planes misbehave.
    public var videoPlane: Bool

    public init(devicePath: String? = nil, connectorName: String? = nil, mode: ModeRequest? = nil,
                rotation: Rotation = .none, deviceDirectory: String = "/dev/dri",
                pageFlip: Bool = getenv("PHOTOKIOSK_DRM_NO_PAGEFLIP") == nil,
                videoPlane: Bool = getenv("PHOTOKIOSK_DRM_NO_VIDEO_PLANE") == nil) {
        self.devicePath = devicePath
        self.connectorName = connectorName
        self.mode = mode
        self.rotation = rotation
        self.deviceDirectory = deviceDirectory
        self.pageFlip = pageFlip
        self.videoPlane = videoPlane
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
    /// Where presenting stands: one value, so no combination of flags can contradict another.
    enum State: Equatable {
        /// No screen to drive (none connected, or not the one configured). `hadScreen`: frames
        /// were shown before (it was unplugged) rather than never.
        case waitingForScreen(String, hadScreen: Bool)
        /// Another program (or the VT) holds DRM master: drawing waits for it to come back.
        case notMaster(hadScreen: Bool)
        /// Showing frames; the next one may be presented.
        case ready
        /// The last page flip came back EBUSY: its damage is kept and goes with the next present
        /// (or when the screen is switched on).
        case flipRefused
        /// A page flip is queued and its completion not read yet. `deferred`: a frame drawn
        /// meanwhile waits for it.
        case flipPending(deferred: Bool)
        /// DPMS off: frames are drawn but not shown. `flipPending`: a flip queued before still
        /// completes; `deferred`: something was drawn meanwhile, shown when it is on again.
        case poweredOff(flipPending: Bool, deferred: Bool)
        case closed

        /// Whether the screen was shown on before (messages say "lost" rather than "waiting").
        var hadScreen: Bool {
            switch self {
            case .waitingForScreen(_, let had), .notMaster(let had): return had
            case .ready, .flipRefused, .flipPending, .poweredOff: return true
            case .closed: return false
            }
        }
    }

    /// How frames reach the screen: page flips between two buffers, or (drivers without page
    /// flip) copies into the visible buffer plus DirtyFB. Changes only one way, on a failed flip.
    enum PresentMode: Equatable {
        case pageFlip
        case frontBufferWithDirtyFB
    }

    /// What the commit pending (`.flipPending`) changes: the screen's buffer, or the video plane
    /// (to buffer `showing`, or off). One at a time: the kernel refuses a second commit on a
    /// CRTC while one is queued.
    enum InFlight: Equatable {
        case screen
        case videoPlane(showing: Int?, withScreen: Bool)
    }

    /// The screen currently driven: connector, mode, CRTC and the two scanout buffers.
    private final class Output {
        let connector: ConnectorInfo
        let mode: ModeInfo
        let crtcID: UInt32
        let buffers: [any ScanoutBuffer]
        let copiers: [ScanoutCopier]
        var damage: DamageTracker
        var front = 0
        var back: Int { 1 - front }
        /// The overlay plane a clip's frames go on, when the CRTC has one (see `VideoPlane`).
        var videoPlane: OverlayVideoPlane?

        init(connector: ConnectorInfo, mode: ModeInfo, crtcID: UInt32, buffers: [any ScanoutBuffer],
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
    let kms: any KMSDevice
    private let log: Logger
    private let watchesScreens: Bool
    private var output: Output?
    private(set) var state: State
    private(set) var presentMode: PresentMode
    private(set) var inFlight = InFlight.screen
    /// What the screen schedule asked for (DRMDisplay+ScreenPower): a setting, kept while there
    /// is no screen to apply it to, and applied after every modeset.
    var screenWanted = true
    private var saved: (crtc: SavedCRTC, connectorID: UInt32)?
    private var loop: (any EventLoopRegistry)?
    private var onEvent: ((DisplayEvent) -> Void)?
    private var hotplug: UdevMonitor?
    private var masterRetry: EventLoop.TimerID?
    private var seatObserver: Int?
    /// Whether the log has said that the screen has a video plane (once, not at every modeset).
    private var announcedVideoPlane = false

    /// Opens the card and sets the mode on the chosen screen. With no screen connected it
    /// waits for one (after `attach`) instead of failing. Throws when there is no DRM device
    /// or it may not be opened (the error names the missing group).
    public convenience init(configuration: DRMConfiguration = DRMConfiguration(),
                            logger: Logger = Logger(label: "photokiosk.drm")) throws(PlatformError) {
        let card = try DRMCard.open(path: configuration.devicePath, directory: configuration.deviceDirectory)
        try self.init(kms: card, configuration: configuration, logger: logger)
    }

    /// Drives `kms` (tests pass a recording one and `watchesScreens: false`, which leaves udev
    /// alone).
    init(kms: any KMSDevice, configuration: DRMConfiguration, logger: Logger,
         watchesScreens: Bool = true) throws(PlatformError) {
        self.configuration = configuration
        self.kms = kms
        self.watchesScreens = watchesScreens
        log = logger
        let placeholder = configuration.mode ?? ModeRequest(width: 1280, height: 720)
        let logical = configuration.rotation.logicalSize(deviceWidth: placeholder.width, deviceHeight: placeholder.height)
        frameBuffer = Bitmap(width: logical.width, height: logical.height)
        state = .waitingForScreen("not set up yet", hadScreen: false)
        presentMode = configuration.pageFlip ? .pageFlip : .frontBufferWithDirtyFB
        kms.onPageFlip = { [unowned self] in self.pageFlipped() }
        if let seat = kms.seat {
            seatObserver = seat.addObserver(pause: { [weak self] in self?.lostMaster() },
                                            resume: { [weak self] in self?.retryMaster() })
        }
        try activate()
    }

    deinit { close() }

    public var name: String {
        let device = "DRM \(kms.path.split(separator: "/").last.map(String.init) ?? kms.path) (\(kms.driver))"
        switch state {
        case .waitingForScreen(let why, _): return "\(device) waiting: \(why)"
        case .notMaster: return "\(device) (not DRM master)"
        case .closed: return "\(device) (closed)"
        case .ready, .flipRefused, .flipPending, .poweredOff:
            guard let output else { return device }
            let rotated = configuration.rotation == .none ? "" : " rotated \(configuration.rotation)"
            return "\(device) \(output.connector.name) \(output.mode.width)x\(output.mode.height)@\(output.mode.refresh)\(rotated)"
                + (presentMode == .pageFlip ? "" : " (front buffer + DirtyFB)")
        }
    }

    public var size: Size { frameBuffer.size }

    public var physicalSize: Size? {
        guard let millimetres = output?.connector.physicalSize else { return nil }
        return configuration.rotation.swapsAxes ? Size(width: millimetres.height, height: millimetres.width) : millimetres
    }

    public var isReadyForFrame: Bool {
        guard output != nil else { return false }
        return state == .ready || state == .flipRefused
    }

    /// The file descriptor of the card, for `doctor` output and tests.
    public var fileDescriptor: Int32 { kms.eventDescriptor }
    /// The connector being driven, if any (for DPMS).
    var activeConnector: (id: UInt32, name: String)? { output.map { ($0.connector.id, $0.connector.name) } }

    // MARK: Modeset

    /// Picks connector, mode and CRTC, allocates the buffers and sets the mode. Returns false
    /// when no screen is connected (state becomes waiting).
    @discardableResult
    private func activate() throws(PlatformError) -> Bool {
        let resources = kms.probe()
        guard let connector = OutputChoice.connector(in: resources.connectors, named: configuration.connectorName) else {
            let what = configuration.connectorName.map { "connector \($0) not connected" } ?? "no screen connected"
            let names = resources.connectors.map { "\($0.name)\($0.isConnected ? "" : " (disconnected)")" }
            state = .waitingForScreen("\(what) [\(names.joined(separator: ", "))]", hadScreen: state.hadScreen)
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
        let buffers = [try kms.makeScanoutBuffer(width: mode.width, height: mode.height),
                       try kms.makeScanoutBuffer(width: mode.width, height: mode.height)]
        let copiers = buffers.map {
            ScanoutCopier(frameBuffer: frameBuffer, memory: $0.memory, deviceWidth: mode.width,
                          deviceHeight: mode.height, stride: $0.stride, format: .xrgb8888, rotation: rotation)
        }
        let output = Output(connector: connector, mode: mode, crtcID: crtcID, buffers: buffers, copiers: copiers,
                            logicalBounds: frameBuffer.bounds)
        output.videoPlane = chooseVideoPlane(crtcIndex: resources.crtcIDs.firstIndex(of: crtcID), crtcID: crtcID, mode: mode)
        if saved == nil, let current = kms.currentCRTC(crtcID) {
            saved = (current, connector.id)
        }
        self.output = output
        if try setCRTC(output) {
            log.info("\(name)")
        }
        return true
    }

    /// Copies the whole frame into the front buffer and sets the mode with it; then the screen
    /// is shown (and blanked again if the schedule has it off). Returns false (state
    /// `.notMaster`) when another program owns the display.
    private func setCRTC(_ output: Output) throws(PlatformError) -> Bool {
        output.damage.invalidateAll()
        output.videoPlane?.forgetShown()
        inFlight = .screen
        output.copiers[output.front].copy(output.damage.take(for: output.front))
        do throws(KMSError) {
            try kms.setCRTC(output.crtcID, framebufferID: output.buffers[output.front].framebufferID,
                            connectorID: output.connector.id, mode: output.mode)
        } catch where error.isNotMaster {
            lostMaster()
            return false
        } catch {
            throw .failed("drmModeSetCrtc \(output.connector.name) \(output.mode)", errno: error.errno)
        }
        state = .ready
        keepBlankAfterModeset()
        return true
    }

    // MARK: Frames

    public func present(damage: [PixelRect]) throws {
        guard let output else { return }
        output.damage.add(damage)
        switch state {
        case .ready, .flipRefused:
            break
        case .flipPending(let deferred):
            state = .flipPending(deferred: deferred || !damage.isEmpty || output.videoPlane?.wanted != nil)
            return
        case .poweredOff(let flipPending, let deferred):
            state = .poweredOff(flipPending: flipPending, deferred: deferred || !damage.isEmpty || output.videoPlane?.wanted != nil)
            return
        case .waitingForScreen, .notMaster, .closed:
            return   // the modeset that ends these redraws everything
        }
        state = .ready
        guard presentMode == .pageFlip else { return presentInFrontBuffer(output) }
        let back = output.back
        let rects = output.damage.take(for: back)
        if !rects.isEmpty { output.copiers[back].copy(rects) }
        if output.videoPlane?.wanted != nil { return commitVideoPlane(output, withScreen: rects) }
        guard !rects.isEmpty else { return }
        flipScreen(output, rects)
    }

    /// A page flip to the back buffer, which holds `rects` newly copied.
    private func flipScreen(_ output: Output, _ rects: [PixelRect]) {
        let back = output.back
        do throws(KMSError) {
            try kms.pageFlip(crtcID: output.crtcID, framebufferID: output.buffers[back].framebufferID)
            inFlight = .screen
            state = .flipPending(deferred: false)
        } catch {
            output.damage.add(rects)    // the back buffer did not reach the screen; keep its damage
            if error.isNotMaster {
                lostMaster()
            } else if error.isBusy {
                state = .flipRefused
            } else {
                log.warning("page flip failed (\(error)): drawing into the front buffer with DirtyFB")
                presentMode = .frontBufferWithDirtyFB
                presentInFrontBuffer(output)
            }
        }
    }

    /// Shows what was drawn while the screen could not show it (switched off, a flip pending
    /// or refused).
    func presentDeferred() {
        try? present(damage: [])
    }

    /// For drivers without page flip: copy into the visible buffer and tell the driver which
    /// parts changed (virtio-gpu shows CPU writes only after DirtyFB; bochs answers ENOSYS,
    /// which changes nothing: its writes show anyway).
    private func presentInFrontBuffer(_ output: Output) {
        let landed = output.copiers[output.front].copy(output.damage.take(for: output.front))
        guard !landed.isEmpty else { return }
        try? kms.dirtyFramebuffer(output.buffers[output.front].framebufferID, clips: landed)
        // Reported from the loop, not from inside present(), so a handler may present again.
        loop?.addTimer(after: 0) { [weak self] in self?.onEvent?(.frameDone) }
    }

    private func pageFlipped() {
        guard let output else { return }
        switch state {
        case .flipPending(let deferred):
            finishCommit(output)
            state = .ready
            if deferred { presentDeferred() }
        case .poweredOff(flipPending: true, let deferred):
            finishCommit(output)
            state = .poweredOff(flipPending: false, deferred: deferred)
        default:
            return   // a flip from before master was lost or the screen went away
        }
        onEvent?(.frameDone)
    }

    // MARK: Power (DPMS; DRMDisplay+ScreenPower)

    /// DPMS went off: frames wait (a flip already queued still completes).
    func poweredOff() {
        switch state {
        case .ready: state = .poweredOff(flipPending: false, deferred: false)
        case .flipRefused: state = .poweredOff(flipPending: false, deferred: true)
        case .flipPending(let deferred): state = .poweredOff(flipPending: true, deferred: deferred)
        case .poweredOff, .waitingForScreen, .notMaster, .closed: break
        }
    }

    /// DPMS is on again: what was drawn meanwhile is shown.
    func poweredOn() {
        switch state {
        case .poweredOff(flipPending: true, let deferred):
            state = .flipPending(deferred: deferred)
        case .poweredOff(flipPending: false, let deferred):
            state = .ready
            if deferred { presentDeferred() }
        case .flipRefused:
            presentDeferred()
        case .ready, .flipPending, .waitingForScreen, .notMaster, .closed:
            break
        }
    }

    // MARK: Events

    public func attach(to loop: any EventLoopRegistry, onEvent: @escaping (DisplayEvent) -> Void) throws {
        self.loop = loop
        self.onEvent = onEvent
        try loop.watch(FileDescriptor(rawValue: kms.eventDescriptor)) { [unowned self] in self.kms.readEvents() }
        if !watchesScreens {
            // Tests: screensChanged() is called by hand.
        } else if let monitor = UdevMonitor(subsystem: "drm") {
            hotplug = monitor
            try loop.watch(FileDescriptor(rawValue: monitor.fd)) { [unowned self] in
                _ = monitor.drain()
                self.screensChanged()
            }
        } else {
            log.warning("no udev monitor: screens plugged in later will not be noticed")
        }
        try kms.seat?.attach(to: loop)
        if case .notMaster = state { scheduleMasterRetry() }
    }

    /// A udev "drm" event: a screen was plugged in, unplugged, or changed.
    func screensChanged() {
        let connectors = kms.probe().connectors
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
            state = .waitingForScreen("\(name) disconnected", hadScreen: state.hadScreen)
            log.notice("screen \(name) disconnected: drawing paused until a screen is connected")
            onEvent?(.suspended("\(name) disconnected"))
        case .remodeset, .connect:
            let wasWaiting = output == nil
            if let output { switchOffVideoPlane(output) }
            output = nil
            do {
                if try activate(), isShowing {
                    if wasWaiting { log.notice("screen connected: \(name), full redraw") }
                    onEvent?(.needsFullRedraw)
                }
            } catch {
                state = .waitingForScreen(error.description, hadScreen: state.hadScreen)
                log.error("\(error)")
            }
        }
    }

    /// Whether the mode is set on a screen and it is ours (lit or switched off by the schedule).
    private var isShowing: Bool {
        switch state {
        case .ready, .flipRefused, .flipPending, .poweredOff: return true
        case .waitingForScreen, .notMaster, .closed: return false
        }
    }

    /// Stops scanning out to a screen that is gone: its CRTC goes dark and is free for the
    /// next modeset, and the buffers can be freed without the kernel clinging to them.
    private func switchOff(_ output: Output) {
        guard isShowing else { return }
        switchOffVideoPlane(output)
        do throws(KMSError) {
            try kms.disableCRTC(output.crtcID)
        } catch {
            log.warning("could not switch off CRTC \(output.crtcID): \(error)")
        }
    }

    private func lostMaster() {
        if case .notMaster = state { return }
        let hadScreen = state.hadScreen
        state = .notMaster(hadScreen: hadScreen)
        if hadScreen {
            log.notice("lost DRM master (VT switch or another program): drawing paused")
        } else {
            log.notice("another program is DRM master of \(kms.path) (a compositor, another kiosk): waiting for it to let go of the screen")
        }
        onEvent?(.suspended("DRM master lost"))
        scheduleMasterRetry()
    }

    /// Without a seat manager there is no notification when the display is free again, so try
    /// once a second while (and only while) it is not ours. With a seat, enable_seat says when.
    private func scheduleMasterRetry() {
        guard let loop, masterRetry == nil, kms.seat == nil else { return }
        masterRetry = loop.addTimer(after: 1) { [unowned self] in
            self.masterRetry = nil
            self.retryMaster()
        }
    }

    private func retryMaster() {
        guard case .notMaster(let hadScreen) = state else { return }
        log.debug("trying to become DRM master again")
        if kms.seat == nil { try? kms.setMaster() }   // the seat manager does it otherwise
        guard let output else {
            state = .waitingForScreen("regained DRM master", hadScreen: hadScreen)
            return screensChanged()
        }
        do {
            if try setCRTC(output) {
                log.notice(hadScreen ? "regained DRM master: full redraw" : "became DRM master: \(name)")
                onEvent?(.needsFullRedraw)
                return
            }
        } catch {
            log.error("\(error)")
        }
        state = .notMaster(hadScreen: hadScreen)
        scheduleMasterRetry()
    }

    // MARK: Cleanup

    public func close() {
        if state == .closed { return }
        state = .closed
        if let loop {
            loop.unwatch(FileDescriptor(rawValue: kms.eventDescriptor))
            if let hotplug { loop.unwatch(FileDescriptor(rawValue: hotplug.fd)) }
            if let masterRetry { loop.cancelTimer(masterRetry) }
        }
        if let seatObserver { kms.seat?.removeObserver(seatObserver) }
        if let output { switchOffVideoPlane(output) }
        if let saved, saved.crtc.showsSomething {
            try? kms.restoreCRTC(saved.crtc, connectorID: saved.connectorID)
        }
        saved = nil
        output = nil
        kms.close()
    }
}

// MARK: Video plane

extension DRMDisplay: VideoPlane {
    public var videoPlane: (any VideoPlane)? { output?.videoPlane == nil ? nil : self }

    public func accepts(_ content: VideoPlaneContent) -> Bool {
        guard let plane = output?.videoPlane, isShowing else { return false }
        return plane.accepts(content)
    }

    /// Recorded, and committed with the next `present` (the app presents right after), in one
    /// atomic commit with the screen's own flip when that frame changed the screen too.
    public func show(_ content: VideoPlaneContent?) {
        _ = output?.videoPlane?.want(content)
    }

    /// The plane for a screen whose CRTC is `crtcIndex`: only with page flips (whose completions
    /// pace the plane's commits) and no rotation (the plane would need the driver to rotate).
    private func chooseVideoPlane(crtcIndex: Int?, crtcID: UInt32, mode: ModeInfo) -> OverlayVideoPlane? {
        guard configuration.videoPlane, configuration.rotation == .none, presentMode == .pageFlip, let crtcIndex,
              let chosen = OverlayVideoPlane.choose(from: kms.overlayPlanes(), crtcIndex: crtcIndex) else { return nil }
        if !announcedVideoPlane {
            announcedVideoPlane = true
            log.info("video plane: overlay plane \(chosen.id) can carry a clip's frames (XR24)")
        }
        return OverlayVideoPlane(planeID: chosen.id, crtcID: crtcID, screen: PixelRect(x: 0, y: 0, width: mode.width, height: mode.height))
    }

    /// Commits what the app wants on the plane, and the back buffer with it when `rects` (just
    /// copied there) is not empty.
    private func commitVideoPlane(_ output: Output, withScreen rects: [PixelRect]) {
        guard let plane = output.videoPlane else { return }
        let wanted = plane.wanted
        let next: (update: PlaneUpdate, showing: Int?)?
        do throws(PlatformError) {
            next = try plane.takeWanted { width, height throws(PlatformError) in try kms.makeScanoutBuffer(width: width, height: height) }
        } catch {
            output.damage.add(rects)
            return giveUpVideoPlane(output, because: error.description)
        }
        guard let next else {
            if !rects.isEmpty { flipScreen(output, rects) }
            return
        }
        do throws(KMSError) {
            try kms.commitPlane(next.update, screenFramebuffer: rects.isEmpty ? nil : output.buffers[output.back].framebufferID)
            inFlight = .videoPlane(showing: next.showing, withScreen: !rects.isEmpty)
            state = .flipPending(deferred: false)
            if (next.showing == nil) != (plane.shown == nil) {
                let at = next.update.destination
                log.info(next.showing == nil ? "video plane: off (the clip is drawn into the screen, or has stopped)"
                    : "video plane: plane \(plane.planeID) (XR24) shows the clip at \(at.width)x\(at.height)+\(at.x)+\(at.y)")
            }
        } catch {
            output.damage.add(rects)    // the back buffer did not reach the screen; keep its damage
            if error.isNotMaster {
                plane.putBack(wanted)
                lostMaster()
            } else if error.isBusy {
                plane.putBack(wanted)
                state = .flipRefused
            } else {
                giveUpVideoPlane(output, because: "atomic commit: \(error)")
            }
        }
    }

    /// The plane failed for good: frames are drawn into the screen again, which the app learns
    /// by `accepts` saying no, and a full redraw puts the clip's frame there.
    private func giveUpVideoPlane(_ output: Output, because reason: String) {
        log.warning("video plane: plane \(output.videoPlane?.planeID ?? 0) cannot be used (\(reason)): clips are drawn into the screen")
        switchOffVideoPlane(output)
        output.videoPlane = nil
        loop?.addTimer(after: 0) { [weak self] in self?.onEvent?(.needsFullRedraw) }
    }

    /// Takes the plane off the screen at once (the screen goes, or the console gets it back).
    private func switchOffVideoPlane(_ output: Output) {
        guard let plane = output.videoPlane, plane.shown != nil || inFlight != .screen else { return }
        try? kms.disablePlane(plane.planeID)
        plane.didShow(nil)
    }

    /// The commit pending completed: the screen's back buffer is now in front, or the plane
    /// shows what was committed.
    private func finishCommit(_ output: Output) {
        switch inFlight {
        case .screen:
            output.front = output.back
        case .videoPlane(let showing, let withScreen):
            output.videoPlane?.didShow(showing)
            if withScreen { output.front = output.back }
        }
        inFlight = .screen
    }
}

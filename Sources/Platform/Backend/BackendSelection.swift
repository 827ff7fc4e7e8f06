import Glibc
import Graphics
import Logging

/// Which display to use; `auto` tries DRM, then fbdev, then headless (saying why).
public enum DisplayBackend: String, Sendable, CaseIterable {
    case auto, drm, fbdev, headless
}

/// Which input to use; `auto` is libinput when it can start, else none (saying why).
public enum InputBackend: String, Sendable, CaseIterable {
    case auto, libinput, none
}

/// Everything the CLI can say about the screen.
public struct DisplayOptions: Sendable {
    public var backend: DisplayBackend
    public var rotation: Rotation
    public var connector: String?
    public var mode: ModeRequest?
    /// A DRM card node; nil picks the first with KMS.
    public var drmDevice: String?
    public var fbdevDevice: String
    /// Logical size of the headless screen.
    public var headlessWidth: Int
    public var headlessHeight: Int

    public init(backend: DisplayBackend = .auto, rotation: Rotation = .none, connector: String? = nil,
                mode: ModeRequest? = nil, drmDevice: String? = nil, fbdevDevice: String = "/dev/fb0",
                headlessWidth: Int = 1280, headlessHeight: Int = 800) {
        self.backend = backend
        self.rotation = rotation
        self.connector = connector
        self.mode = mode
        self.drmDevice = drmDevice
        self.fbdevDevice = fbdevDevice
        self.headlessWidth = headlessWidth
        self.headlessHeight = headlessHeight
    }
}

/// A display chosen by `openDisplay`, with a notice when `auto` had to fall back.
public struct OpenedDisplay {
    public let display: any Display
    /// Set when `auto` did not get DRM: the reasons, for the log or screen.
    public let notice: String?
    /// Maps input device positions onto this display.
    public let mapping: ScreenMapping
}

/// Opens the display the options ask for. Explicit backends throw their error (with the
/// missing group or device); `auto` falls back DRM → fbdev → headless and explains why.
public func openDisplay(_ options: DisplayOptions, logger: Logger = Logger(label: "photokiosk.display")) throws -> OpenedDisplay {
    func drm() throws -> any Display {
        try DRMDisplay(configuration: DRMConfiguration(devicePath: options.drmDevice, connectorName: options.connector,
                                                       mode: options.mode, rotation: options.rotation), logger: logger)
    }
    func fbdev() throws -> any Display {
        try FBDevDisplay(path: options.fbdevDevice, rotation: options.rotation, logger: logger)
    }
    func headless() -> any Display {
        HeadlessDisplay(width: options.headlessWidth, height: options.headlessHeight)
    }
    func opened(_ d: any Display, _ notice: String? = nil) -> OpenedDisplay {
        OpenedDisplay(display: d, notice: notice, mapping: ScreenMapping(logicalSize: d.size, rotation: options.rotation))
    }
    switch options.backend {
    case .drm: return opened(try drm())
    case .fbdev: return opened(try fbdev())
    case .headless: return OpenedDisplay(display: headless(), notice: nil,
                                         mapping: ScreenMapping(deviceWidth: options.headlessWidth,
                                                                deviceHeight: options.headlessHeight))
    case .auto:
        var reasons: [String] = []
        do { return opened(try drm()) } catch { reasons.append("DRM: \(error)") }
        do {
            let d = try fbdev()
            let notice = "using fbdev because " + reasons.joined(separator: "; ")
            logger.notice("\(notice)")
            return opened(d, notice)
        } catch { reasons.append("\(error)") }
        let notice = "no screen device, running headless: " + reasons.joined(separator: "; ")
        logger.notice("\(notice)")
        return OpenedDisplay(display: headless(), notice: notice,
                             mapping: ScreenMapping(deviceWidth: options.headlessWidth, deviceHeight: options.headlessHeight))
    }
}

/// Starts input as asked. `.none` gives nil; `.auto` gives nil with a logged reason when
/// libinput cannot start; `.libinput` throws. Events reach `handler` after `attach(to:)`.
public func openInput(_ backend: InputBackend, configuration: InputConfiguration = InputConfiguration(),
                      mapping: ScreenMapping, logger: Logger = Logger(label: "photokiosk.input"),
                      handler: @escaping (InputEvent) -> Void) throws -> (any InputSource)? {
    switch backend {
    case .none: return nil
    case .libinput:
        return try LibinputSource(configuration: configuration, mapping: mapping, logger: logger, handler: handler)
    case .auto:
        do {
            return try LibinputSource(configuration: configuration, mapping: mapping, logger: logger, handler: handler)
        } catch {
            logger.notice("no input: \(error)")
            return nil
        }
    }
}

import Basics
import Glibc
import Graphics
import Logging

/// Where Platform gets device file descriptors: straight from open(2), or through a libseat
/// seat. The DRM card and libinput's devices go through the process-wide `shared` opener.
public enum DeviceOpener: Sendable {
    /// open(2): the user needs the video and input groups.
    case direct
    /// libseat_open_device: seatd or logind grants the devices.
    case seat(LibseatSession)
    /// PHOTOKIOSK_SEAT=libseat but libseat could not be used: every open fails with the reason.
    case unavailable(String)

    /// The soname dlopen'ed; libseat1 is not a link-time dependency.
    public static let libseatSoname = "libseat.so.1"

    /// The seat, when devices go through one.
    public var seat: LibseatSession? {
        if case .seat(let seat) = self { return seat }
        return nil
    }

    /// Opens a device node. `flags` apply to direct opens; libseat picks its own
    /// (read-write, non-blocking, close-on-exec).
    func open(_ path: String, flags: Int32) throws(PlatformError) -> Int32 {
        switch self {
        case .direct: return try openDevice(path, flags: flags)
        case .seat(let seat): return try seat.openDevice(path)
        case .unavailable(let why): throw .unsupported(why)
        }
    }

    /// Closes a descriptor `open` returned.
    func close(_ fd: Int32) {
        if let seat, seat.closeDevice(fd) { return }
        _ = Glibc.close(fd)
    }

    /// Chooses how devices are opened. `auto` uses libseat when the library loads and a seat
    /// opens, else opens directly; `libseat` insists; `none` never tries. Returns the opener
    /// and the one line that says what was chosen and why.
    public static func resolve(mode: SeatMode, library: String = libseatSoname,
                               logger: Logger = Logger(label: "photokiosk.seat")) -> (opener: DeviceOpener, message: String) {
        let variable = SeatMode.environmentVariable
        if mode == .none {
            return (.direct, "\(variable)=none: opening /dev/dri and /dev/input directly")
        }
        do {
            let seat = try LibseatSession.open(library: library, logger: logger)
            return (.seat(seat), "using libseat seat \(seat.name): devices are opened through libseat (seatd, logind or, as root, its built-in server)")
        } catch {
            if mode == .libseat {
                let why = "\(variable)=libseat but libseat cannot be used (\(error.reason))"
                return (.unavailable(why), why)
            }
            return (.direct, "libseat not used (\(error.reason)): opening /dev/dri and /dev/input directly "
                + "(needs the video and input groups)")
        }
    }

    /// Whether a seat manager grants `path`: seatd hands out only DRM and evdev nodes (logind
    /// the same device classes). Anything else (a file a test made) is opened directly, and
    /// does not wake libseat at all.
    public static func isSeatDevice(_ path: String) -> Bool {
        path.hasPrefix("/dev/dri/") || path.hasPrefix("/dev/input/event")
    }

    /// The opener for `path`: `shared` for seat devices, `direct` for anything else.
    static func forDevice(_ path: String) -> DeviceOpener {
        isSeatDevice(path) ? shared : .direct
    }

    private static let resolved = Locked<(opener: DeviceOpener, message: String)?>(nil)

    /// The process-wide opener, chosen from PHOTOKIOSK_SEAT on first use (so a run that never
    /// opens a device never touches libseat) and logged once.
    public static var shared: DeviceOpener {
        resolved.withLock { choice in
            if let choice { return choice.opener }
            let logger = Logger(label: "photokiosk.seat")
            let (mode, warning) = SeatMode.fromEnvironment()
            if let warning { logger.warning("\(warning)") }
            let (chosen, message) = resolve(mode: mode, logger: logger)
            if case .seat = chosen { logger.notice("\(message)") } else { logger.info("\(message)") }
            choice = (chosen, message)
            return chosen
        }
    }

    /// What `shared` chose and why, or nil while no seat device has been opened (for `doctor`).
    public static var sharedChoice: String? {
        resolved.withLock { $0?.message }
    }
}

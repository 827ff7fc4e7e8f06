import CInput
import CLibInput
import SystemAccess
import Glibc
import Graphics
import Logging
import SystemPackage

/// Which input devices to read.
public struct InputConfiguration: Sendable {
    /// The udev seat whose devices are used (hotplug included) when `devices` is empty.
    public var seat: String
    /// Explicit /dev/input/eventN nodes (libinput's path backend; no hotplug).
    public var devices: [String]
    /// A calibration matrix (row-major 2x3, as LIBINPUT_CALIBRATION_MATRIX) that replaces the
    /// udev one on every touch device that supports calibration; nil keeps udev's.
    public var calibration: [Double]?

    public init(seat: String = "seat0", devices: [String] = [], calibration: [Double]? = nil) {
        self.seat = seat
        self.devices = devices
        self.calibration = calibration
    }
}

/// Touchscreens, mice and keyboards through libinput, reported as `InputEvent`s in logical
/// screen pixels. Touch positions come from libinput's `*_transformed` calls, so a
/// LIBINPUT_CALIBRATION_MATRIX set by udev is honoured; then the display rotation applies.
/// A mouse acts as a single finger (slot `InputEvent.mouseSlot`) while its left button is held.
/// This class only reads libinput's C events into `LibinputEvent` values; what they mean is
/// `LibinputTranslator`'s (slots, the mouse as a finger, keys).
public final class LibinputSource {
    /// Update when the display's size or rotation changes.
    public var mapping: ScreenMapping {
        get { translator.mapping }
        set { translator.mapping = newValue }
    }
    public let configuration: InputConfiguration
    private let log: Logger
    private let handler: (InputEvent) -> Void
    private let interface: UnsafeMutablePointer<libinput_interface>
    private var udev: OpaquePointer?
    private var context: OpaquePointer?
    private var devices: [OpaquePointer: InputDeviceInfo] = [:]
    /// The descriptors libinput opened, by path: a device's axis ranges are read through them.
    private var openNodes: [String: Int32] = [:]
    private var translator: LibinputTranslator
    private weak var loop: (any EventLoopRegistry)?
    /// The libseat seat devices came from, once one did; its disable/enable suspend and resume
    /// libinput (which closes and reopens the devices through the seat).
    private var seat: LibseatSession?
    private var seatObserver: Int?

    /// Creates the libinput context (udev seat or explicit device paths). `handler` receives
    /// events on the loop thread once `attach` is called.
    public init(configuration: InputConfiguration = InputConfiguration(), mapping: ScreenMapping,
                logger: Logger = Logger(label: "photokiosk.input"),
                handler: @escaping (InputEvent) -> Void) throws(PlatformError) {
        self.configuration = configuration
        translator = LibinputTranslator(mapping: mapping)
        self.handler = handler
        log = logger
        // libinput keeps a pointer to the interface: it must live as long as the context.
        interface = .allocate(capacity: 1)
        interface.initialize(to: libinput_interface(
            open_restricted: { path, flags, user in
                guard let path, let user else { return -EINVAL }
                return Unmanaged<LibinputSource>.fromOpaque(user).takeUnretainedValue()
                    .openRestricted(String(cString: path), flags: flags)
            },
            close_restricted: { fd, user in
                guard let user else { _ = Glibc.close(fd); return }
                Unmanaged<LibinputSource>.fromOpaque(user).takeUnretainedValue().closeRestricted(fd)
            }))
        let me = Unmanaged.passUnretained(self).toOpaque()
        if configuration.devices.isEmpty {
            guard let udev = udev_new() else { throw .input("udev_new failed") }
            self.udev = udev
            guard let li = libinput_udev_create_context(interface, me, udev) else {
                throw .input("libinput_udev_create_context failed")
            }
            context = li
            installLogger(li)
            guard libinput_udev_assign_seat(li, configuration.seat) == 0 else {
                throw .input("cannot assign seat \(configuration.seat) (is udev running?)")
            }
        } else {
            guard let li = libinput_path_create_context(interface, me) else {
                throw .input("libinput_path_create_context failed")
            }
            context = li
            installLogger(li)
            for path in configuration.devices {
                guard access(path, F_OK) == 0 else { throw .input("no input device \(path)") }
                guard access(path, R_OK) == 0 else {
                    let access = DeviceAccess(path: path)
                    throw .permissionDenied(path: path, group: access.groupName, userInGroup: access.userInGroup)
                }
                guard libinput_path_add_device(li, path) != nil else {
                    throw .input("libinput cannot use \(path) (see the libinput messages above)")
                }
            }
        }
    }

    deinit {
        close()
        interface.deallocate()
    }

    private func installLogger(_ li: OpaquePointer) {
        libinput_log_set_priority(li, LIBINPUT_LOG_PRIORITY_INFO)
        cinput_set_log_sink(li) { li, priority, message in
            guard let li, let message, let user = libinput_get_user_data(li) else { return }
            let source = Unmanaged<LibinputSource>.fromOpaque(user).takeUnretainedValue()
            let text = String(cString: message)
            switch libinput_log_priority(rawValue: UInt32(priority)) {
            case LIBINPUT_LOG_PRIORITY_ERROR: source.log.error("libinput: \(text)")
            case LIBINPUT_LOG_PRIORITY_INFO: source.log.info("libinput: \(text)")
            default: source.log.debug("libinput: \(text)")
            }
        }
    }

    /// libinput's way into /dev/input: through the seat when there is one, else open(2).
    /// Returns an fd or -errno, as libinput expects.
    private func openRestricted(_ path: String, flags: Int32) -> Int32 {
        let opener = DeviceOpener.forDevice(path)
        guard let deviceSeat = opener.seat else {
            if case .unavailable(let why) = opener {
                log.error("\(why)")
                return -EPERM
            }
            let fd = open(path, flags | O_CLOEXEC)
            if fd >= 0 { openNodes[path] = fd }
            return fd < 0 ? -errno : fd
        }
        let fd: Int32
        do {
            fd = try deviceSeat.openDevice(path)
        } catch {
            if case .system(let failure) = error { return -failure.errno.rawValue }
            return -EIO
        }
        if seat == nil {
            seat = deviceSeat
            seatObserver = deviceSeat.addObserver(pause: { [weak self] in self?.suspend() },
                                                  resume: { [weak self] in self?.resume() })
            if let loop { try? deviceSeat.attach(to: loop) }
        }
        openNodes[path] = fd
        return fd
    }

    private func closeRestricted(_ fd: Int32) {
        openNodes = openNodes.filter { $0.value != fd }
        if let seat, seat.closeDevice(fd) { return }
        _ = Glibc.close(fd)
    }

    /// The seat was taken away: libinput closes its devices (reported as removed); fingers
    /// still down are cancelled, as their lift will never be seen.
    private func suspend() {
        guard let li = context else { return }
        libinput_suspend(li)
        dispatch()
        report(.suspended(time: SystemClock.monotonicSeconds()))
    }

    /// The seat is back: libinput reopens the devices through the seat.
    private func resume() {
        guard let li = context else { return }
        if libinput_resume(li) != 0 { log.error("libinput_resume failed: input devices may be gone") }
        dispatch()
    }

    /// libinput's epoll fd (readable when devices have events).
    public var fileDescriptor: Int32 { context.map { libinput_get_fd($0) } ?? -1 }

    /// Devices in use now.
    public var currentDevices: [InputDeviceInfo] { Array(devices.values) }

    /// Watches libinput's fd on `loop` and reports the devices already present right away.
    public func attach(to loop: any EventLoopRegistry) throws(PlatformError) {
        self.loop = loop
        try loop.watch(FileDescriptor(rawValue: fileDescriptor)) { [unowned self] in self.dispatch() }
        try seat?.attach(to: loop)
        dispatch()
        if devices.isEmpty && configuration.devices.isEmpty {
            log.warning("no input devices on \(configuration.seat) yet: \(Self.inputAccessHint())")
        }
    }

    /// Reads everything libinput has and reports it. Called by the loop when the fd is readable.
    public func dispatch() {
        guard let li = context else { return }
        libinput_dispatch(li)
        while let event = libinput_get_event(li) {
            handle(event)
            libinput_event_destroy(event)
        }
    }

    public func close() {
        guard let li = context else { return }
        if let seatObserver { seat?.removeObserver(seatObserver) }
        seatObserver = nil
        loop?.unwatch(FileDescriptor(rawValue: libinput_get_fd(li)))
        context = nil
        libinput_unref(li)
        if let udev { udev_unref(udev) }
        udev = nil
    }

    // MARK: Translation

    private func handle(_ event: OpaquePointer) {
        let type = libinput_event_get_type(event)
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            let device = libinput_event_get_device(event)!
            if let matrix = configuration.calibration, matrix.count == 6,
               libinput_device_config_calibration_has_matrix(device) != 0 {
                var m = matrix.map { Float($0) }
                let status = libinput_device_config_calibration_set_matrix(device, &m)
                let name = String(cString: libinput_device_get_name(device))
                if status != LIBINPUT_CONFIG_STATUS_SUCCESS {
                    log.warning("\(name): calibration matrix not accepted (status \(status.rawValue))")
                } else {
                    log.info("\(name): calibration matrix \(matrix.map { "\($0)" }.joined(separator: " "))")
                }
            }
            var info = Self.info(device)
            if info.isTouchscreen, let fd = openNodes[info.node] {
                info.axisX = InputDeviceDescription.axis(fd: fd, vertical: false)
                info.axisY = InputDeviceDescription.axis(fd: fd, vertical: true)
            }
            devices[device] = info
            // The mouse stands in for a finger: a left press must not wait 50 ms to see whether
            // a right press follows (libinput's middle-button emulation on two-button mice).
            if libinput_device_config_middle_emulation_is_available(device) != 0 {
                _ = libinput_device_config_middle_emulation_set_enabled(device, LIBINPUT_CONFIG_MIDDLE_EMULATION_DISABLED)
            }
            log.info("input device added: \(info.name) (\(info.node))")
            handler(.deviceAdded(info))
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            let device = libinput_event_get_device(event)!
            let info = devices.removeValue(forKey: device) ?? Self.info(device)
            if info.isPointer { report(.pointerRemoved(time: SystemClock.monotonicSeconds())) }
            log.info("input device removed: \(info.name)")
            handler(.deviceRemoved(info))
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP,
             LIBINPUT_EVENT_TOUCH_CANCEL, LIBINPUT_EVENT_TOUCH_FRAME:
            if let touch = libinput_event_get_touch_event(event) { report(touchEvent(touch, type: type)) }
        case LIBINPUT_EVENT_POINTER_MOTION, LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE, LIBINPUT_EVENT_POINTER_BUTTON:
            if let pointer = libinput_event_get_pointer_event(event) { report(pointerEvent(pointer, type: type)) }
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            let k = libinput_event_get_keyboard_event(event)
            report(.key(code: libinput_event_keyboard_get_key(k),
                        pressed: libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED,
                        time: Double(libinput_event_keyboard_get_time_usec(k)) / 1e6))
        default:
            break
        }
    }

    private func report(_ event: LibinputEvent) {
        if case .touchCancel(let slot, _) = event { log.info("touch \(slot) cancelled") }
        for translated in translator.translate(event) { handler(translated) }
    }

    /// A touch event's values; positions in panel pixels.
    private func touchEvent(_ touch: OpaquePointer, type: libinput_event_type) -> LibinputEvent {
        let time = Double(libinput_event_touch_get_time_usec(touch)) / 1e6
        if type == LIBINPUT_EVENT_TOUCH_FRAME { return .touchFrame(time: time) }
        let slot = Int(libinput_event_touch_get_seat_slot(touch))
        switch type {
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let x = libinput_event_touch_get_x_transformed(touch, UInt32(mapping.deviceWidth))
            let y = libinput_event_touch_get_y_transformed(touch, UInt32(mapping.deviceHeight))
            return type == LIBINPUT_EVENT_TOUCH_DOWN ? .touchDown(slot: slot, x: x, y: y, time: time)
                                                     : .touchMotion(slot: slot, x: x, y: y, time: time)
        case LIBINPUT_EVENT_TOUCH_UP:
            return .touchUp(slot: slot, time: time)
        default:
            return .touchCancel(slot: slot, time: time)
        }
    }

    /// A pointer event's values.
    private func pointerEvent(_ pointer: OpaquePointer, type: libinput_event_type) -> LibinputEvent {
        let time = Double(libinput_event_pointer_get_time_usec(pointer)) / 1e6
        switch type {
        case LIBINPUT_EVENT_POINTER_MOTION:
            return .pointerMotion(dx: libinput_event_pointer_get_dx(pointer), dy: libinput_event_pointer_get_dy(pointer), time: time)
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            return .pointerMotionAbsolute(x: libinput_event_pointer_get_absolute_x_transformed(pointer, UInt32(mapping.deviceWidth)),
                                          y: libinput_event_pointer_get_absolute_y_transformed(pointer, UInt32(mapping.deviceHeight)),
                                          time: time)
        default:
            return .pointerButton(code: libinput_event_pointer_get_button(pointer),
                                  pressed: libinput_event_pointer_get_button_state(pointer) == LIBINPUT_BUTTON_STATE_PRESSED,
                                  time: time)
        }
    }

    private static func info(_ device: OpaquePointer) -> InputDeviceInfo {
        InputDeviceInfo(
            name: String(cString: libinput_device_get_name(device)),
            node: "/dev/input/" + String(cString: libinput_device_get_sysname(device)),
            isTouchscreen: libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0,
            isPointer: libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER) != 0,
            isKeyboard: libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0,
            sizeMillimetres: InputDeviceDescription.size(device),
            calibration: InputDeviceDescription.calibration(device))
    }

    /// Why a seat may look empty: unreadable /dev/input nodes name the `input` group.
    static func inputAccessHint() -> String {
        let nodes = InputNodes.list()
        guard !nodes.isEmpty else { return "no /dev/input/event* nodes" }
        if let denied = nodes.first(where: { access($0.path, R_OK) != 0 }) {
            return PlatformError.permissionDenied(path: denied.path, group: DeviceAccess(path: denied.path).groupName,
                                                  userInGroup: DeviceAccess(path: denied.path).userInGroup).description
        }
        return "the devices are readable; is udev running and are they tagged for \("seat0")?"
    }
}

/// /dev/input/event* with the names the kernel gives them.
enum InputNodes {
    static func list(directory: String = "/dev/input") -> [(path: String, name: String)] {
        var result: [(String, String)] = []
        for entry in entryNames(inDirectory: directory) ?? [] {
            let node = String(decoding: entry, as: UTF8.self)
            guard node.hasPrefix("event") else { continue }
            let name = SysfsAttribute.firstLine(of: "/sys/class/input/\(node)/device/name") ?? "?"
            result.append(("\(directory)/\(node)", name))
        }
        return result.sorted { $0.0.count == $1.0.count ? $0.0 < $1.0 : $0.0.count < $1.0.count }
    }
}

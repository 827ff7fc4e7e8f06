import CLibInput
import Glibc

/// Kernel/udev device events for one subsystem ("drm": a screen plugged or unplugged), as a
/// file descriptor for the event loop. Needs udevd (or systemd-udevd) to rebroadcast events.
final class UdevMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    var fd: Int32 { udev_monitor_get_fd(monitor) }

    init?(subsystem: String) {
        guard let udev = udev_new() else { return nil }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            return nil
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
        guard udev_monitor_enable_receiving(monitor) >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            return nil
        }
        self.udev = udev
        self.monitor = monitor
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Reads all pending events; returns their actions ("change", "add", "remove").
    func drain() -> [String] {
        var actions: [String] = []
        while let device = udev_monitor_receive_device(monitor) {
            actions.append(udev_device_get_action(device).map { String(cString: $0) } ?? "?")
            udev_device_unref(device)
        }
        return actions
    }
}

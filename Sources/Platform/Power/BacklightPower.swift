import SystemAccess
import Glibc

/// A panel's backlight under /sys/class/backlight (DSI screens such as the Raspberry Pi touch
/// display, many laptops' panels): `bl_power` 4 (FB_BLANK_POWERDOWN) switches the light off,
/// 0 on. Panels whose driver ignores bl_power are dimmed through `brightness` 0 and restored to
/// the brightness they had. The files belong to root: deploy/99-photokiosk.rules gives the
/// `video` group write access.
public final class BacklightPower: ScreenPowerControl {
    /// The device folder, e.g. /sys/class/backlight/10-0045.
    public let directory: String
    public private(set) var isScreenOn = true
    private var savedBrightness: String?

    public init(directory: String) {
        self.directory = directory
    }

    /// The first backlight device under `root`, nil when there is none.
    public static func first(in root: String = "/sys/class/backlight") -> BacklightPower? {
        guard let dir = opendir(root) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = String(decoding: direntName(entry), as: UTF8.self)
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().first.map { BacklightPower(directory: root + "/" + $0) }
    }

    public var powerControlName: String { "backlight \(directory)" }

    public func setScreenOn(_ on: Bool) throws(PlatformError) {
        let blPower = directory + "/bl_power"
        if access(blPower, F_OK) == 0 {
            try write(on ? "0" : "4", to: blPower)
        } else if on {
            try write(savedBrightness ?? read(directory + "/max_brightness") ?? "1", to: directory + "/brightness")
        } else {
            savedBrightness = read(directory + "/brightness")
            try write("0", to: directory + "/brightness")
        }
        isScreenOn = on
    }

    private func write(_ value: String, to path: String) throws(PlatformError) {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw .system("open \(path) (the video group needs write access: deploy/99-photokiosk.rules)", errno: errno) }
        defer { close(fd) }
        let bytes = Array((value + "\n").utf8)
        guard Glibc.write(fd, bytes, bytes.count) == bytes.count else { throw .system("write \(path)", errno: errno) }
    }

    private func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = Glibc.read(fd, &buffer, buffer.count)
        guard n > 0 else { return nil }
        let text = String(decoding: buffer[0..<n], as: UTF8.self).trimmingWhitespace
        return text.isEmpty ? nil : text
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(self.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}

import Basics
import SystemAccess
import Glibc
import SystemPackage

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
        guard let entries = entryNames(inDirectory: root) else { return nil }
        let names = entries.map { String(decoding: $0, as: UTF8.self) }.filter { !$0.hasPrefix(".") }
        return names.sorted().first.map { BacklightPower(directory: root + "/" + $0) }
    }

    public var powerControlName: String { "backlight \(directory)" }

    public func setScreenOn(_ on: Bool) throws(PlatformError) {
        let blPower = directory + "/bl_power"
        if FileSystemCalls.exists(FilePath(blPower)) {
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
        let file: FileDescriptor
        do {
            file = try FileDescriptor.openFile(FilePath(path), .writeOnly, options: [.truncate])
        } catch {
            // The usual cause, said where it shows: the message names the udev rule that fixes it.
            throw .failed("open for writing (the video group needs write access: deploy/99-photokiosk.rules)",
                          path: path, errno: error.errno.rawValue)
        }
        defer { file.closeQuietly() }
        // sysfs takes the value in one write.
        do throws(Errno) {
            try file.writeAll(Array((value + "\n").utf8))
        } catch {
            throw .failed("write", path: path, errno: error.rawValue)
        }
    }

    private func read(_ path: String) -> String? {
        guard let bytes = try? FileSystemCalls.contents(of: FilePath(path), limit: 64), !bytes.isEmpty else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }
}

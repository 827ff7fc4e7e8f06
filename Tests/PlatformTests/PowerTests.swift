import TestSupport
import Glibc
import Testing
@testable import Platform

/// Screen blanking without a screen: the backlight through a folder laid out like
/// /sys/class/backlight/<device>, and the headless display's recorded state.
@Suite struct PowerTests {
    let scratch = ScratchDirectory()

    func makeDevice(files: [String: String]) throws -> (root: String, device: String) {
        let root = scratch.newFolder("backlight")
        let device = root + "/panel"
        mkdir(device, 0o755)
        for (name, value) in files { try write(value, to: device + "/" + name) }
        return (root, device)
    }

    func write(_ value: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        let bytes = Array(value.utf8)
        #expect(Glibc.write(fd, bytes, bytes.count) == bytes.count)
    }

    func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = Glibc.read(fd, &buffer, buffer.count)
        return String(decoding: buffer[0..<max(0, n)], as: UTF8.self)
    }

    @Test func blPowerSwitchesTheBacklightOffAndOn() throws {
        let (root, device) = try makeDevice(files: ["bl_power": "0\n", "brightness": "200\n", "max_brightness": "255\n"])
        let backlight = try #require(BacklightPower.first(in: root))
        #expect(backlight.directory == device)
        try backlight.setScreenOn(false)
        #expect(read(device + "/bl_power") == "4\n")
        #expect(!backlight.isScreenOn)
        #expect(read(device + "/brightness") == "200\n", "brightness is left alone")
        try backlight.setScreenOn(true)
        #expect(read(device + "/bl_power") == "0\n")
        #expect(backlight.isScreenOn)
    }

    @Test func withoutBlPowerTheBrightnessGoesToZeroAndBack() throws {
        let (_, device) = try makeDevice(files: ["brightness": "37\n", "max_brightness": "255\n"])
        let backlight = BacklightPower(directory: device)
        try backlight.setScreenOn(false)
        #expect(read(device + "/brightness") == "0\n")
        try backlight.setScreenOn(true)
        #expect(read(device + "/brightness") == "37\n")
    }

    @Test func anUnwritableBacklightSaysWhatIsMissing() throws {
        let backlight = BacklightPower(directory: "/nonexistent/photokiosk-panel")
        #expect(throws: PlatformError.self) { try backlight.setScreenOn(false) }
        #expect(backlight.isScreenOn, "the state only changes when the write worked")
        #expect(BacklightPower.first(in: "/nonexistent/backlight") == nil)
    }

    @Test func firstPicksTheDevicesInNameOrder() throws {
        let (root, _) = try makeDevice(files: ["bl_power": "0\n"])
        mkdir(root + "/a-earlier", 0o755)
        #expect(BacklightPower.first(in: root)?.directory == root + "/a-earlier")
    }

    @Test func headlessDisplayRecordsThePowerState() throws {
        let display = HeadlessDisplay(width: 8, height: 8)
        let control: any ScreenPowerControl = display
        #expect(control.isScreenOn)
        try control.setScreenOn(false)
        try control.setScreenOn(false)
        #expect(!display.isScreenOn)
        try control.setScreenOn(true)
        #expect(display.isScreenOn)
        #expect(display.powerChanges == 2)
    }
}

import TestSupport
import Glibc
import Graphics
import Testing
@testable import Platform
import SystemAccess

@Suite("Clear errors and backend fallback")
struct ErrorMessageTests {
    /// An empty directory standing in for /dev/dri on a machine without a KMS driver.
    func emptyDirectory() -> String {
        makeTemporaryDirectory("dri")
    }

    @Test func noCardNodeIsReportedAsNoDRMDevice() throws {
        let dir = emptyDirectory()
        defer { rmdir(dir) }
        let error = #expect(throws: PlatformError.self) {
            try DRMDisplay(configuration: DRMConfiguration(deviceDirectory: dir))
        }
        #expect(error == .noDRMDevice("\(dir)/card*"))
        #expect(error?.description.contains("No DRM device") == true)
        #expect(error?.description.contains("KMS driver") == true)
    }

    @Test func explicitMissingCardNamesThePath() {
        #expect(throws: PlatformError.noDRMDevice("/nonexistent/card3")) {
            try DRMDisplay(configuration: DRMConfiguration(devicePath: "/nonexistent/card3"))
        }
    }

    @Test func permissionMessagesNameTheGroupToJoin() {
        let notIn = PlatformError.permissionDenied(path: "/dev/dri/card0", group: "video", userInGroup: false)
        #expect(notIn.description.contains("group 'video'"))
        #expect(notIn.description.contains("usermod -aG video"))
        let input = PlatformError.permissionDenied(path: "/dev/input/event3", group: "input", userInGroup: true)
        #expect(input.description.contains("although you are in group 'input'"))
        #expect(PlatformError.system(SystemError("open", path: "/x", errno: .noSuchFileOrDirectory)).description == "open /x failed: No such file or directory")
    }

    @Test func autoFallsBackToHeadlessAndSaysWhy() throws {
        let opened = try openDisplay(DisplayOptions(backend: .auto, drmDevice: "/nonexistent/card0",
                                                    fbdevDevice: "/nonexistent/fb0", headlessWidth: 640, headlessHeight: 480))
        #expect(opened.display is HeadlessDisplay)
        #expect(opened.display.size == Size(width: 640, height: 480))
        let notice = try #require(opened.notice)
        #expect(notice.contains("No DRM device (/nonexistent/card0"))
        #expect(notice.contains("no framebuffer device /nonexistent/fb0"))
    }

    @Test func explicitBackendsThrowInsteadOfFallingBack() {
        #expect(throws: PlatformError.self) {
            try openDisplay(DisplayOptions(backend: .drm, drmDevice: "/nonexistent/card0"))
        }
        #expect(throws: PlatformError.fbdev("no framebuffer device /nonexistent/fb0")) {
            try openDisplay(DisplayOptions(backend: .fbdev, fbdevDevice: "/nonexistent/fb0"))
        }
    }

    @Test func missingInputDeviceIsNamed() {
        let mapping = ScreenMapping(deviceWidth: 100, deviceHeight: 100)
        #expect(throws: PlatformError.input("no input device /nonexistent/event9")) {
            try LibinputSource(configuration: InputConfiguration(devices: ["/nonexistent/event9"]), mapping: mapping) { _ in }
        }
        #expect(throws: Never.self) {
            let none = try openInput(.none, mapping: mapping) { _ in }
            #expect(none == nil)
        }
    }

    @Test func doctorReportListsEverySection() {
        let dir = emptyDirectory()
        defer { rmdir(dir) }
        let report = platformReport(drmDirectory: dir, inputDirectory: dir)
        #expect(report.contains("DRM devices (\(dir)):"))
        #expect(report.contains("No DRM device"))
        #expect(report.contains("Input devices (\(dir)):\n  none"))
        #expect(report.hasPrefix("user: "))
    }
}

@Suite("DRM card discovery")
struct DRMCardDiscoveryTests {
    @Test func cardNodesAreListedInNumericOrderAndOthersIgnored() throws {
        let dir = makeTemporaryDirectory("dri")
        let names = ["card10", "card2", "renderD128", "card0", "by-path"]
        for name in names { close(open("\(dir)/\(name)", O_CREAT | O_WRONLY, 0o600)) }
        defer { for name in names { unlink("\(dir)/\(name)") }; rmdir(dir) }
        #expect(DRMCard.nodes(in: dir) == ["\(dir)/card0", "\(dir)/card2", "\(dir)/card10"])
        // Nodes that are not KMS devices: the error says so instead of crashing or hanging.
        let error = #expect(throws: PlatformError.self) { try DRMCard.open(path: nil, directory: dir) }
        #expect(error == .noUsableOutput("\(dir)/card0 has no KMS (dumb buffers / mode resources)"))
    }
}

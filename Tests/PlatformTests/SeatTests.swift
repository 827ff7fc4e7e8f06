import Glibc
@testable import Platform
import Testing

@Suite("Seat: choosing libseat or direct open")
struct SeatChoiceTests {
    @Test func environmentValueSelectsTheMode() {
        #expect(SeatMode.fromEnvironment(nil) == (.auto, nil))
        #expect(SeatMode.fromEnvironment("") == (.auto, nil))
        #expect(SeatMode.fromEnvironment("none") == (.none, nil))
        #expect(SeatMode.fromEnvironment("LibSeat") == (.libseat, nil))
        let unknown = SeatMode.fromEnvironment("logind")
        #expect(unknown.mode == .auto)
        #expect(unknown.warning == "PHOTOKIOSK_SEAT=logind is not one of auto, libseat, none: using auto")
    }

    @Test func autoFallsBackToDirectOpenWhenTheLibraryIsMissing() {
        let (opener, message) = DeviceOpener.resolve(mode: .auto, library: "libphotokiosk-no-such-seat.so.9")
        guard case .direct = opener else {
            Issue.record("expected direct open, got \(opener)")
            return
        }
        #expect(message.hasPrefix("libseat not used (dlopen libphotokiosk-no-such-seat.so.9: "))
        #expect(message.hasSuffix("): opening /dev/dri and /dev/input directly (needs the video and input groups)"))
    }

    @Test func aLibraryWithoutLibseatSymbolsIsNotUsed() {
        let (opener, message) = DeviceOpener.resolve(mode: .auto, library: "libc.so.6")
        #expect(opener.seat == nil)
        #expect(message.contains("libc.so.6 has no symbol libseat_open_seat"))
    }

    @Test func explicitLibseatWithoutTheLibraryRefusesToOpenDevices() throws {
        let (opener, message) = DeviceOpener.resolve(mode: .libseat, library: "libphotokiosk-no-such-seat.so.9")
        #expect(message.hasPrefix("PHOTOKIOSK_SEAT=libseat but libseat cannot be used (dlopen libphotokiosk-no-such-seat.so.9: "))
        let error = #expect(throws: PlatformError.self) { try opener.open("/dev/dri/card0", flags: O_RDWR) }
        #expect(error == .unsupported(message))
    }

    @Test func noneOpensDirectlyWithoutTryingLibseat() throws {
        let (opener, message) = DeviceOpener.resolve(mode: .none, library: "libc.so.6")
        #expect(message == "PHOTOKIOSK_SEAT=none: opening /dev/dri and /dev/input directly")
        guard case .direct = opener else {
            Issue.record("expected direct open, got \(opener)")
            return
        }
        // The direct opener really opens and closes.
        var template = Array("/tmp/photokiosk-seat-XXXXXX".utf8CString)
        let (fd0, path) = template.withUnsafeMutableBufferPointer { buffer in
            let fd = mkstemp(buffer.baseAddress!)
            return (fd, String(cString: buffer.baseAddress!))
        }
        try #require(fd0 >= 0)
        defer { unlink(path) }
        _ = close(fd0)
        let fd = try opener.open(path, flags: O_RDWR)
        #expect(fcntl(fd, F_GETFD) >= 0)
        opener.close(fd)
        #expect(fcntl(fd, F_GETFD) == -1)
    }

    @Test func onlyDRMAndEvdevNodesGoThroughTheSeat() {
        #expect(DeviceOpener.isSeatDevice("/dev/dri/card0"))
        #expect(DeviceOpener.isSeatDevice("/dev/input/event3"))
        #expect(!DeviceOpener.isSeatDevice("/dev/input/mice"))
        #expect(!DeviceOpener.isSeatDevice("/dev/fb0"))
        #expect(!DeviceOpener.isSeatDevice("/tmp/photokiosk-dri-abc/card0"))
        #expect(DeviceOpener.forDevice("/tmp/photokiosk-dri-abc/card0").seat == nil)
    }
}

@Suite("Seat: enable/disable state machine")
struct SeatActivityTests {
    @Test func firstEnableResumesNothing() {
        var seat = SeatActivity()
        #expect(seat.state == .pending)
        #expect(!seat.isEnabled)
        #expect(seat.handle(.enable) == [])
        #expect(seat.isEnabled)
    }

    @Test func vtSwitchAwayPausesThenAcknowledgesAndComingBackResumes() {
        var seat = SeatActivity()
        _ = seat.handle(.enable)
        #expect(seat.handle(.disable) == [.pauseDevices, .acknowledgeDisable])
        #expect(seat.state == .disabled)
        #expect(seat.handle(.enable) == [.resumeDevices])
        #expect(seat.state == .enabled)
        // A second round behaves the same.
        #expect(seat.handle(.disable) == [.pauseDevices, .acknowledgeDisable])
        #expect(seat.handle(.enable) == [.resumeDevices])
    }

    @Test func repeatedEventsDoNotPauseOrResumeTwice() {
        var seat = SeatActivity()
        _ = seat.handle(.enable)
        #expect(seat.handle(.enable) == [])
        _ = seat.handle(.disable)
        #expect(seat.handle(.disable) == [.acknowledgeDisable])
        #expect(seat.handle(.enable) == [.resumeDevices])
    }

    @Test func disableBeforeTheFirstEnableOnlyAcknowledges() {
        var seat = SeatActivity()
        #expect(seat.handle(.disable) == [.acknowledgeDisable])
        #expect(seat.handle(.enable) == [.resumeDevices])
    }

    @Test func nothingHappensAfterClose() {
        var seat = SeatActivity()
        _ = seat.handle(.enable)
        #expect(seat.handle(.close) == [])
        #expect(seat.state == .closed)
        #expect(seat.handle(.disable) == [])
        #expect(seat.handle(.enable) == [])
        #expect(seat.state == .closed)
    }
}

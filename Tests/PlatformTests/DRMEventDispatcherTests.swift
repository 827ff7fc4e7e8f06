import CDRM
import Glibc
import SystemPackage
import Testing
@testable import Platform

@Suite("DRM page-flip events")
struct DRMEventDispatcherTests {
    /// Writes the record the kernel sends when a flip completes.
    private func writeFlipComplete(_ fd: Int32, userData: UnsafeMutableRawPointer, sequence: UInt32,
                                   seconds: UInt32, microseconds: UInt32) {
        var event = drm_event_vblank()
        event.base.type = UInt32(DRM_EVENT_FLIP_COMPLETE)
        event.base.length = UInt32(MemoryLayout<drm_event_vblank>.size)
        event.user_data = UInt64(UInt(bitPattern: userData))
        event.tv_sec = seconds
        event.tv_usec = microseconds
        event.sequence = sequence
        _ = write(fd, &event, MemoryLayout<drm_event_vblank>.size)
    }

    @Test func flipCompleteReachesTheDispatcherThroughDrmHandleEvent() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let dispatcher = DRMEventDispatcher()
        var flips: [(UInt32, Double)] = []
        dispatcher.onPageFlip = { flips.append(($0, $1)) }
        writeFlipComplete(fds[1], userData: dispatcher.userData, sequence: 42, seconds: 12, microseconds: 500_000)
        writeFlipComplete(fds[1], userData: dispatcher.userData, sequence: 43, seconds: 12, microseconds: 516_667)
        #expect(dispatcher.dispatch(fd: fds[0]) == 0)
        #expect(flips.map(\.0) == [42, 43])
        #expect(abs(flips[0].1 - 12.5) < 1e-9)
        #expect(abs(flips[1].1 - 12.516667) < 1e-9)
    }

    @Test func otherEventTypesAreIgnored() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let dispatcher = DRMEventDispatcher()
        var flips = 0
        dispatcher.onPageFlip = { _, _ in flips += 1 }
        var event = drm_event_vblank()
        event.base.type = UInt32(DRM_EVENT_VBLANK)
        event.base.length = UInt32(MemoryLayout<drm_event_vblank>.size)
        _ = write(fds[1], &event, MemoryLayout<drm_event_vblank>.size)
        dispatcher.dispatch(fd: fds[0])
        #expect(flips == 0)
    }

    @Test func eventLoopDeliversFlipsFromAWatchedDescriptor() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let loop = try EventLoop(signals: [])
        let dispatcher = DRMEventDispatcher()
        var sequence: UInt32 = 0
        dispatcher.onPageFlip = { seq, _ in sequence = seq }
        let readEnd = fds[0]
        try loop.watch(FileDescriptor(rawValue: readEnd)) { dispatcher.dispatch(fd: readEnd) }
        writeFlipComplete(fds[1], userData: dispatcher.userData, sequence: 7, seconds: 1, microseconds: 0)
        try loop.runOnce(timeout: 1)
        #expect(sequence == 7)
    }
}

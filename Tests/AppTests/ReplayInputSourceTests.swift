import Graphics
import Platform
@testable import PhotoKioskApp
import TestSupport
import Testing

/// A recording played as an input source (`photokiosk replay` in real time), on a loop turned by
/// hand: events at their recorded times, a hold at each mark, a new screen size followed.
@Suite struct ReplayInputSourceTests {
    typealias Entry = TouchRecording.Entry

    static let recording = TouchRecording(entries: [
        Entry(time: 0.0, event: .down(slot: 0, x: 0.25, y: 0.5)),
        Entry(time: 0.0, event: .frame),
        Entry(time: 0.1, event: .move(slot: 0, x: 0.5, y: 0.5)),
        Entry(time: 0.1, event: .frame),
        Entry(time: 0.2, event: .mark("middle")),
        Entry(time: 0.3, event: .up(slot: 0)),
        Entry(time: 0.3, event: .frame),
        Entry(time: 0.5, event: .key(name: "escape", pressed: true)),
    ])

    final class Received {
        var events: [InputEvent] = []
    }

    func makeSource(_ loop: SteppedLoop, _ received: Received) -> ReplayInputSource {
        ReplayInputSource(recording: Self.recording, geometry: RecordingGeometry(logicalSize: Size(width: 400, height: 200), rotation: .none),
                          clock: { loop.now }, handler: { received.events.append($0) })
    }

    @Test func eventsComeAtTheirRecordedTimesInOrder() throws {
        let loop = SteppedLoop()
        loop.now = 10
        let received = Received()
        let source = makeSource(loop, received)
        try source.attach(to: loop)
        #expect(received.events.isEmpty, "nothing before the loop runs")
        loop.advance(to: 10)
        #expect(received.events == [.touch(slot: 0, phase: .down, location: Point(x: 100, y: 100), time: 10), .frame(time: 10)])
        loop.advance(to: 10.05)
        #expect(received.events.count == 2, "the move is not due yet")
        loop.advance(to: 10.1)
        #expect(received.events.last == .frame(time: 10.1))
        #expect(received.events[2] == .touch(slot: 0, phase: .motion, location: Point(x: 200, y: 100), time: 10.1))
        #expect(!source.isFinished)
    }

    @Test func aMarkHoldsUntilResumedAndTheRestKeepsItsSpacing() throws {
        let loop = SteppedLoop()
        let received = Received()
        let source = makeSource(loop, received)
        try source.attach(to: loop)
        loop.advance(to: 0.2)
        #expect(source.heldAtMark == "middle")
        #expect(received.events.count == 4)
        loop.advance(to: 5)
        #expect(received.events.count == 4, "held: nothing while the screen settles")
        #expect(loop.pendingTimers == 0)
        source.resume()                   // 4.8 s after the mark: the rest moves on by that much
        #expect(source.heldAtMark == nil)
        loop.advance(to: 5.05)
        #expect(received.events.count == 4, "the lift keeps its 0.1 s after the mark")
        loop.advance(to: 5.1)
        #expect(received.events[4] == .touch(slot: 0, phase: .up, location: Point(x: 200, y: 100), time: 5.1), "lifted where it was")
        loop.advance(to: 5.3)
        #expect(received.events.last == .key(.escape, pressed: true, time: 5.3))
        #expect(source.isFinished)
    }

    @Test func closeStopsItAndAScreenChangeMovesThePositions() throws {
        let loop = SteppedLoop()
        let received = Received()
        let source = makeSource(loop, received)
        source.screenChanged(to: ScreenMapping(logicalSize: Size(width: 200, height: 400), rotation: .clockwise90))
        try source.attach(to: loop)
        loop.advance(to: 0)
        // Panel 400x200 turned a quarter: the panel point (100, 100) shows at (100, 300).
        #expect(received.events.first == .touch(slot: 0, phase: .down, location: Point(x: 100, y: 300), time: 0))
        source.close()
        #expect(loop.pendingTimers == 0)
        loop.advance(to: 1)
        #expect(received.events.count == 2)
        #expect(!source.isFinished)
    }
}

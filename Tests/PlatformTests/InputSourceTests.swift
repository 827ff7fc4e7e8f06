import Graphics
import Platform
import TestSupport
import Testing

@Suite("Input sources on an event-loop protocol")
struct InputSourceTests {
    static let down = InputEvent.touch(slot: 0, phase: .down, location: Point(x: 10, y: 20), time: 0)
    static let up = InputEvent.touch(slot: 0, phase: .up, location: Point(x: 10, y: 20), time: 0.25)

    @Test("a scripted source delivers each event at its time, in order, and nothing after close")
    func scriptedTiming() throws {
        let loop = SteppedLoop()
        var received: [InputEvent] = []
        let source: any InputSource = ScriptedInputSource(steps: [
            .init(after: 0, Self.down), .init(after: 0, .frame(time: 0)),
            .init(after: 0.25, Self.up), .init(after: 1, .key(.right, pressed: true, time: 1)),
        ]) { received.append($0) }
        #expect(received.isEmpty)
        try source.attach(to: loop)
        loop.advance(to: 0)
        #expect(received == [Self.down, .frame(time: 0)])
        loop.advance(to: 0.5)
        #expect(received == [Self.down, .frame(time: 0), Self.up])
        source.close()
        #expect(loop.pendingTimers == 0)
        loop.advance(to: 2)
        #expect(received.count == 3)
    }

    @Test("a headless display attaches to any loop without watching anything")
    func headlessAttach() throws {
        let loop = SteppedLoop()
        let display: any Display = HeadlessDisplay(width: 64, height: 48)
        try display.attach(to: loop) { _ in }
        #expect(loop.watched.isEmpty)
    }
}

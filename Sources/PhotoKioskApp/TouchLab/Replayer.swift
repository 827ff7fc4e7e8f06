import Graphics
import Platform
import UI

/// Plays a recording into a screen as the input devices would: with its original timing on
/// the real clock, or as fast as possible on a virtual clock (`ManualClock`) that stands still
/// while images decode, so a fast replay gives the same pixels and the same gestures every time.
public final class Replayer {
    public enum Pace {
        /// Real time, as recorded.
        case original
        /// As fast as possible: `clock` must be the clock of the host's window.
        case fast(ManualClock)
    }

    public let recording: TouchRecording
    public let geometry: RecordingGeometry
    /// Called at each `mark` line once the screen shows everything due by then.
    public var onMark: ((String) throws -> Void)?
    /// Longest real wait for pending content (decodes) at one step.
    public var settleTimeout = 30.0
    /// Steps at which content did not arrive within `settleTimeout` (the replay went on without
    /// it, so its pixels may differ from run to run).
    public private(set) var stalls = 0
    /// More stalls than this end the replay with `ReplayError.stalled` (nil: never).
    public var maxStalls: Int?
    /// How long a fast replay lets animations run after the last event (virtual seconds).
    public var tail = 10.0
    /// The UI clock's time of the recording's zero (set by `run`, once the screen settled).
    public private(set) var startTime: Double?

    private let host: ScreenHost
    private let pace: Pace
    private let deliver: (InputEvent) -> Void
    private let isSettled: () -> Bool

    /// - Parameters:
    ///   - deliver: hands one event to the screen (the app's input handler).
    ///   - isSettled: whether everything requested so far has arrived (decoded images).
    public init(recording: TouchRecording, geometry: RecordingGeometry, host: ScreenHost, pace: Pace,
                deliver: @escaping (InputEvent) -> Void, isSettled: @escaping () -> Bool = { true }) {
        self.recording = recording
        self.geometry = geometry
        self.host = host
        self.pace = pace
        self.deliver = deliver
        self.isSettled = isSettled
    }

    /// The platform events a recording entry stands for; `last` keeps each slot's position
    /// (a lift reports where the finger was).
    static func inputEvents(_ event: TouchRecording.Event, at time: Double, geometry: RecordingGeometry,
                            last: inout [Int: Point]) -> [InputEvent] {
        func slot(_ s: Int) -> Int { s == TouchRecorder.mouseSlot ? InputEvent.mouseSlot : s }
        switch event {
        case let .down(s, x, y), let .move(s, x, y):
            let p = geometry.logicalPoint(x: x, y: y)
            last[s] = p
            let phase: Platform.TouchPhase
            if case .down = event { phase = .down } else { phase = .motion }
            return [.touch(slot: slot(s), phase: phase, location: p, time: time)]
        case let .up(s):
            return [.touch(slot: slot(s), phase: .up, location: last.removeValue(forKey: s) ?? .zero, time: time)]
        case let .cancel(s):
            return [.touch(slot: slot(s), phase: .cancel, location: last.removeValue(forKey: s) ?? .zero, time: time)]
        case .frame:
            return [.frame(time: time)]
        case let .key(name, pressed):
            return RecordedKey.key(name).map { [.key($0, pressed: pressed, time: time)] } ?? []
        case .mark:
            return []
        }
    }

    /// Plays every entry, then lets the screen settle.
    public func run() throws {
        try settle()
        let start = host.window.scheduler.now
        startTime = start
        var last: [Int: Point] = [:]
        for entry in recording.entries {
            let due = start + entry.time
            try wait(until: due)
            if case .mark(let name) = entry.event {
                try settle()
                try onMark?(name)
                continue
            }
            for event in Self.inputEvents(entry.event, at: due, geometry: geometry, last: &last) { deliver(event) }
            host.pump()
        }
        try finish(after: start + recording.duration)
    }

    private func wait(until due: Double) throws {
        switch pace {
        case .fast(let clock):
            var steps = 0
            while let deadline = host.window.nextDeadline, deadline <= due, steps < 100_000 {
                clock.now = max(clock.now, deadline)
                host.pump()
                try settle()
                steps += 1
            }
            clock.now = max(clock.now, due)
            host.pump()
        case .original:
            while host.loop.now < due {
                try host.loop.runOnce(timeout: due - host.loop.now)
                host.pump()
            }
        }
    }

    /// Lets pending content arrive without moving the virtual clock.
    private func settle() throws {
        let giveUp = host.loop.now + settleTimeout
        host.pump()
        while !isSettled() {
            guard host.loop.now < giveUp else {
                stalls += 1
                if let maxStalls, stalls > maxStalls { throw ReplayError.stalled(times: stalls, timeout: settleTimeout) }
                return
            }
            try host.loop.runOnce(timeout: 0.02)
            host.pump()
        }
    }

    private func finish(after end: Double) throws {
        switch pace {
        case .fast:
            // An animation that keeps asking for the same instant must not hold the replay.
            var steps = 0
            while let deadline = host.window.nextDeadline, deadline <= end + tail, steps < 100_000 {
                try wait(until: deadline)
                steps += 1
            }
            try settle()
        case .original:
            try host.run(until: isSettled, timeout: settleTimeout)
        }
    }
}

public enum ReplayError: Error, CustomStringConvertible {
    case stalled(times: Int, timeout: Double)

    public var description: String {
        switch self {
        case let .stalled(times, timeout):
            return "the screen's content did not arrive within \(timeout) s, \(times) times: the replay stopped"
        }
    }
}

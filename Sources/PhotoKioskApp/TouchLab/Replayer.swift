import Graphics
import Platform
import UI

/// Plays a recording into a screen as the input devices would: with its original timing on
/// the real clock (through a `ReplayInputSource` on the loop), or as fast as possible on a virtual clock (`ManualClock`) that stands still
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

    /// Plays every entry, then lets the screen settle.
    public func run() throws {
        try settle()
        let start = host.window.scheduler.now
        startTime = start
        switch pace {
        case .fast(let clock): try playStepwise(from: start, clock: clock)
        case .original: try playOnTheLoop()
        }
        try finish(after: start + recording.duration)
    }

    /// The virtual clock moves from entry to entry, through every UI deadline on the way.
    private func playStepwise(from start: Double, clock: ManualClock) throws {
        var last: [Int: Point] = [:]
        for entry in recording.entries {
            let due = start + entry.time
            try wait(until: due, clock: clock)
            if case .mark(let name) = entry.event {
                try settle()
                try onMark?(name)
                continue
            }
            for event in ReplayInputSource.inputEvents(entry.event, at: due, geometry: geometry, last: &last) { deliver(event) }
            host.pump()
        }
    }

    /// Real time: the recording is an input source on the loop, like the touchscreen it was made on.
    private func playOnTheLoop() throws {
        let source = ReplayInputSource(recording: recording, geometry: geometry, clock: { [loop = host.loop] in loop.now },
                                       handler: deliver)
        try source.attach(to: host.loop)
        defer { source.close() }
        while !source.isFinished {
            if let mark = source.heldAtMark {
                try settle()
                try onMark?(mark)
                source.resume()
                continue
            }
            try host.loop.runOnce(timeout: 0.05)
            host.pump()
        }
    }

    private func wait(until due: Double, clock: ManualClock) throws {
        var steps = 0
        while let deadline = host.window.nextDeadline, deadline <= due, steps < 100_000 {
            clock.now = max(clock.now, deadline)
            host.pump()
            try settle()
            steps += 1
        }
        clock.now = max(clock.now, due)
        host.pump()
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
        case .fast(let clock):
            // An animation that keeps asking for the same instant must not hold the replay.
            var steps = 0
            while let deadline = host.window.nextDeadline, deadline <= end + tail, steps < 100_000 {
                try wait(until: deadline, clock: clock)
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

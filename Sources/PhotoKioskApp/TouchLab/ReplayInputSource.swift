import Graphics
import Platform

/// A touch recording as an input source: its events come at their recorded times on the loop's
/// timers, as a touchscreen's would (`photokiosk replay` without --fast). At a mark line it holds
/// until `resume()`, so whoever plays it can let the screen settle and take its picture first;
/// the events after a mark keep their recorded spacing (the timeline moves on by the time held,
/// rather than firing the late ones at once, which would turn a slow drag into a flick).
public final class ReplayInputSource: InputSource {
    public let recording: TouchRecording
    /// Where the recording's normalised positions land; follows `screenChanged(to:)`.
    public private(set) var geometry: RecordingGeometry
    /// The mark the source holds at, waiting for `resume()`.
    public private(set) var heldAtMark: String?
    /// True once every entry was delivered.
    public private(set) var isFinished = false

    private let handler: (InputEvent) -> Void
    private let now: () -> Double
    private weak var loop: (any EventLoopRegistry)?
    private var pending: EventLoop.TimerID?
    private var start = 0.0
    private var next = 0
    private var heldSince = 0.0
    /// Each slot's last position: a lift reports where the finger was.
    private var lastPositions: [Int: Point] = [:]

    /// - Parameters:
    ///   - clock: the loop's clock (monotonic seconds), the time base of the events' timestamps.
    ///   - handler: where the events go, on the loop thread.
    public init(recording: TouchRecording, geometry: RecordingGeometry, clock: @escaping () -> Double,
                handler: @escaping (InputEvent) -> Void) {
        self.recording = recording
        self.geometry = geometry
        self.now = clock
        self.handler = handler
    }

    deinit { close() }

    /// Starts from the recording's beginning, now.
    public func attach(to loop: any EventLoopRegistry) throws(PlatformError) {
        close()
        self.loop = loop
        start = now()
        next = 0
        heldAtMark = nil
        isFinished = false
        lastPositions = [:]
        armNext()
    }

    public func close() {
        if let pending { loop?.cancelTimer(pending) }
        pending = nil
    }

    /// Goes on after the mark it holds at.
    public func resume() {
        guard heldAtMark != nil else { return }
        heldAtMark = nil
        start += now() - heldSince
        armNext()
    }

    /// The recording keeps its normalised positions; they land on the new screen from now on.
    public func screenChanged(to mapping: ScreenMapping) {
        geometry = RecordingGeometry(logicalSize: Size(width: Double(mapping.logicalWidth), height: Double(mapping.logicalHeight)),
                                     rotation: mapping.rotation)
    }

    private func due(_ index: Int) -> Double { start + recording.entries[index].time }

    private func armNext() {
        guard let loop else { return }
        guard next < recording.entries.count else {
            isFinished = true
            return
        }
        pending = loop.addTimer(after: max(0, due(next) - now())) { [weak self] in self?.deliverNext() }
    }

    /// One entry a timer: the screen may draw between entries as it would between real events.
    private func deliverNext() {
        pending = nil
        let index = next
        next += 1
        let entry = recording.entries[index]
        if case .mark(let name) = entry.event {
            heldAtMark = name
            heldSince = now()
            return
        }
        for event in Self.inputEvents(entry.event, at: due(index), geometry: geometry, last: &lastPositions) {
            handler(event)
        }
        armNext()
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
}

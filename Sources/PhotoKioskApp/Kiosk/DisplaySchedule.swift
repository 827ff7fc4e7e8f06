/// When the screen should be off, from the configured periods: a pure function of the local time.
/// Each period starts on one of its days at `off` and ends at the next `on` (overnight when `on`
/// is earlier than `off`); the screen is off while any period covers the time.
public struct DisplaySchedule: Equatable, Sendable {
    public var periods: [SchedulePeriod]

    public init(periods: [SchedulePeriod]) { self.periods = periods }

    static let week: Int64 = 7 * 86_400

    /// Off intervals as [start, end) in seconds from Monday 00:00; `end` may pass the end of the
    /// week (Sunday night into Monday), which `contains` handles by also looking one week back.
    private var offIntervals: [(start: Int64, end: Int64)] {
        var result: [(Int64, Int64)] = []
        for p in periods {
            let off = Int64(p.off.secondsSinceMidnight), on = Int64(p.on.secondsSinceMidnight)
            for day in p.days {
                let start = Int64(day.rawValue) * 86_400 + off
                let end = Int64(day.rawValue) * 86_400 + on + (on > off ? 0 : 86_400)
                result.append((start, end))
            }
        }
        return result
    }

    private static func weekPosition(_ t: LocalDateTime) -> Int64 {
        Int64(t.weekday.rawValue) * 86_400 + Int64(t.secondOfDay)
    }

    private func isOff(weekPosition p: Int64, _ intervals: [(start: Int64, end: Int64)]) -> Bool {
        intervals.contains { ($0.start <= p && p < $0.end) || ($0.start <= p + Self.week && p + Self.week < $0.end) }
    }

    public func isOn(at t: LocalDateTime) -> Bool {
        !isOff(weekPosition: Self.weekPosition(t), offIntervals)
    }

    /// The first moment after `t` at which `isOn` differs from its value at `t`; nil when it never
    /// changes (no periods, or periods covering the whole week).
    public func nextChange(after t: LocalDateTime) -> LocalDateTime? {
        let intervals = offIntervals
        let p = Self.weekPosition(t)
        let now = !isOff(weekPosition: p, intervals)
        var deltas: [Int64] = []
        for i in intervals {
            for b in [i.start, i.end] {
                var d = (b - p) % Self.week
                if d <= 0 { d += Self.week }
                deltas.append(d)
            }
        }
        for d in deltas.sorted() where !isOff(weekPosition: (p + d) % Self.week, intervals) != now {
            return t.adding(seconds: d)
        }
        return nil
    }
}

/// The screen's power: the schedule plus "wake on touch" — a touch while the schedule has the
/// screen off turns it on for `wakeSeconds`; each further touch extends that; when it runs out
/// inside the same off period the screen blanks again. A scheduled "on" ends the wake.
public struct ScreenPower: Equatable, Sendable {
    public struct Decision: Equatable, Sendable {
        public var screenOn: Bool
        /// True when the screen is on only because of a touch.
        public var woken: Bool
        /// When to ask again; nil: nothing will change until a touch.
        public var nextChange: LocalDateTime?

        public init(screenOn: Bool, woken: Bool, nextChange: LocalDateTime?) {
            self.screenOn = screenOn
            self.woken = woken
            self.nextChange = nextChange
        }
    }

    public let schedule: DisplaySchedule
    public let wakeSeconds: Int64
    public private(set) var wakeStart: LocalDateTime?
    public private(set) var wakeUntil: LocalDateTime?
    /// A screen switched on or off on request (a remote): it holds until the schedule's next
    /// change (`until`; nil: no schedule, until the next request), or a touch on a dark screen.
    public private(set) var manual: Manual?

    public struct Manual: Equatable, Sendable {
        public var screenOn: Bool
        public var until: LocalDateTime?
    }

    public init(schedule: DisplaySchedule, wakeMinutes: Int) {
        self.schedule = schedule
        self.wakeSeconds = Int64(max(0, wakeMinutes)) * 60
    }

    public init(config: KioskConfig.Schedule) {
        self.init(schedule: DisplaySchedule(periods: config.periods), wakeMinutes: config.wakeMinutes)
    }

    private func isWoken(at t: LocalDateTime) -> Bool {
        guard let wakeStart, let wakeUntil, t >= wakeStart, t < wakeUntil, !schedule.isOn(at: t) else { return false }
        // Still the off period the touch happened in: the schedule has not turned on in between.
        if let on = schedule.nextChange(after: wakeStart), on <= t { return false }
        return true
    }

    public func decision(at t: LocalDateTime) -> Decision {
        if let manual, manual.until.map({ t < $0 }) ?? true {
            return Decision(screenOn: manual.screenOn, woken: false, nextChange: manual.until)
        }
        if isWoken(at: t), let wakeUntil {
            guard let scheduledOn = schedule.nextChange(after: t), scheduledOn <= wakeUntil else {
                return Decision(screenOn: true, woken: true, nextChange: wakeUntil)
            }
            // The schedule turns on before the wake runs out: the screen simply stays on.
            return Decision(screenOn: true, woken: true, nextChange: schedule.nextChange(after: scheduledOn))
        }
        return Decision(screenOn: schedule.isOn(at: t), woken: false, nextChange: schedule.nextChange(after: t))
    }

    /// True while a request (a remote) decides the screen's power.
    public func isRequested(at t: LocalDateTime) -> Bool {
        guard let manual else { return false }
        return manual.until.map { t < $0 } ?? true
    }

    /// Switches the screen on or off on request until the schedule next changes.
    public mutating func request(screenOn: Bool, at t: LocalDateTime) {
        wakeStart = nil
        wakeUntil = nil
        manual = Manual(screenOn: screenOn, until: schedule.nextChange(after: t))
    }

    /// A touch at `t`. Returns true when it woke a blank screen: the app turns the screen on and
    /// does not deliver this touch (a person tapping a dark screen did not mean to press anything).
    public mutating func touch(at t: LocalDateTime) -> Bool {
        if let manual, manual.until.map({ t < $0 }) ?? true {
            // Switched on on request: an ordinary touch. Switched off: a touch brings it back,
            // as the schedule or a wake has it.
            guard !manual.screenOn else { return false }
            self.manual = nil
            if schedule.isOn(at: t) { return true }
        }
        guard wakeSeconds > 0, !schedule.isOn(at: t) else { return false }
        let wasOn = isWoken(at: t)
        if !wasOn { wakeStart = t }
        wakeUntil = t.adding(seconds: wakeSeconds)
        return !wasOn
    }
}

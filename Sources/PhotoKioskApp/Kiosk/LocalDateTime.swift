import Basics
import Platform

/// A local wall-clock date and time, the input of schedule decisions. Passed in, never read inside
/// the logic, so tests can ask about any day. Arithmetic is on wall-clock seconds ("local seconds
/// since 1970-01-01 00:00"), so a daylight-saving jump moves a deadline by an hour at most; the app
/// re-evaluates at each deadline with the then-current local time, which corrects it.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    public init(localSeconds: Int64) {
        let days = Int(localSeconds.floorDivided(by: 86_400))
        let secondOfDay = Int(localSeconds - Int64(days) * 86_400)
        let date = CivilDate.date(daysSinceEpoch: days)
        self.init(year: date.year, month: date.month, day: date.day,
                  hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60, second: secondOfDay % 60)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int { CivilDate.daysSinceEpoch(year: year, month: month, day: day) }

    public var localSeconds: Int64 {
        Int64(daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public var secondOfDay: Int { hour * 3600 + minute * 60 + second }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        Weekday(rawValue: (daysSinceEpoch + 3).modulo(7))!
    }

    public func adding(seconds: Int64) -> LocalDateTime {
        LocalDateTime(localSeconds: localSeconds + seconds)
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { a.localSeconds < b.localSeconds }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)):\(two(second))"
    }

    /// The current local time, from Platform's reading of the system clock: for the app's edge only.
    public static func current() -> LocalDateTime { LocalDateTime(LocalWallClock.now()) }

    /// The wall-clock fields Platform reads and formats (the weekday follows from the date).
    public init(_ fields: CalendarFields) {
        self.init(year: fields.year, month: fields.month, day: fields.day,
                  hour: fields.hour, minute: fields.minute, second: fields.second)
    }

    /// For the locale's formats (Platform's `LocaleTimeFormat`).
    public var calendarFields: CalendarFields {
        CalendarFields(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                       weekday: (weekday.rawValue + 1) % 7)   // Weekday counts from Monday, tm from Sunday
    }
}

extension Int64 {
    fileprivate func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}

extension Int {
    fileprivate func modulo(_ m: Int) -> Int { ((self % m) + m) % m }
}

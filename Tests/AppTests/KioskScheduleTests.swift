@testable import PhotoKioskApp
import Testing

@Suite struct KioskScheduleTests {
    /// 2026-11-23 is a Monday.
    func at(_ day: Int, _ hour: Int, _ minute: Int = 0, month: Int = 11, year: Int = 2026) -> LocalDateTime {
        LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute)
    }

    func period(_ text: String) -> SchedulePeriod { SchedulePeriod(parsing: text)! }

    // MARK: Local time

    @Test func weekdaysOfKnownDates() {
        #expect(LocalDateTime(year: 1970, month: 1, day: 1).weekday == .thursday)
        #expect(LocalDateTime(year: 2000, month: 2, day: 29).weekday == .tuesday)
        #expect(LocalDateTime(year: 2026, month: 11, day: 22).weekday == .sunday)
        #expect(at(23, 12).weekday == .monday)
        #expect(LocalDateTime(year: 1969, month: 12, day: 31).weekday == .wednesday)
    }

    @Test func localSecondsRoundTripAcrossMonthsYearsAndLeapDays() {
        for t in [LocalDateTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59),
                  LocalDateTime(year: 1969, month: 12, day: 31, hour: 1, minute: 2, second: 3),
                  LocalDateTime(year: 2100, month: 3, day: 1)] {
            #expect(LocalDateTime(localSeconds: t.localSeconds) == t)
        }
        #expect(LocalDateTime(year: 2026, month: 12, day: 31, hour: 23, minute: 30).adding(seconds: 3600)
                == LocalDateTime(year: 2027, month: 1, day: 1, hour: 0, minute: 30))
        #expect(LocalDateTime(year: 2028, month: 2, day: 28, hour: 12).adding(seconds: 86_400).day == 29)
        #expect(LocalDateTime(year: 1970, month: 1, day: 1).localSeconds == 0)
    }

    // MARK: Schedule

    @Test func noPeriodsMeansAlwaysOn() {
        let s = DisplaySchedule(periods: [])
        #expect(s.isOn(at: at(23, 3)))
        #expect(s.nextChange(after: at(23, 3)) == nil)
    }

    @Test func overnightRangeCrossesMidnight() {
        let s = DisplaySchedule(periods: [period("daily 22:30-07:00")])
        #expect(s.isOn(at: at(23, 22, 29)))
        #expect(!s.isOn(at: at(23, 22, 30)))
        #expect(!s.isOn(at: at(24, 0, 0)))
        #expect(!s.isOn(at: at(24, 6, 59)))
        #expect(s.isOn(at: at(24, 7, 0)))
        #expect(s.nextChange(after: at(23, 12)) == at(23, 22, 30))
        #expect(s.nextChange(after: at(23, 22, 30)) == at(24, 7, 0))
        #expect(s.nextChange(after: at(24, 1)) == at(24, 7, 0))
        // Across the end of a month and year.
        #expect(s.nextChange(after: LocalDateTime(year: 2026, month: 12, day: 31, hour: 23))
                == LocalDateTime(year: 2027, month: 1, day: 1, hour: 7))
    }

    @Test func daytimeRangeWithinOneDay() {
        let s = DisplaySchedule(periods: [period("mon-fri 09:00-17:00")])
        #expect(s.isOn(at: at(23, 8, 59)))
        #expect(!s.isOn(at: at(23, 9)))
        #expect(s.isOn(at: at(23, 17)))
        // Friday 17:00 → next off is Monday 09:00, over the weekend.
        #expect(s.nextChange(after: at(27, 17)) == at(30, 9))
        #expect(s.isOn(at: at(28, 12)), "Saturday is not in the days")
    }

    @Test func overnightPeriodEndsOnADayOutsideItsDays() {
        // Friday night is off until Saturday 08:00 even though Saturday is not listed.
        let s = DisplaySchedule(periods: [period("mon-fri 23:00-08:00")])
        #expect(!s.isOn(at: at(28, 7, 59)))
        #expect(s.isOn(at: at(28, 8)))
        #expect(s.isOn(at: at(28, 23, 30)), "Saturday night is on")
        #expect(s.isOn(at: at(29, 23, 30)), "Sunday night is on")
        // Sunday night is on, so Monday morning is on too.
        #expect(s.isOn(at: at(30, 7)))
        #expect(s.nextChange(after: at(28, 8)) == at(30, 23))
    }

    @Test func sundayNightWrapsIntoMonday() {
        let s = DisplaySchedule(periods: [period("sun 22:00-06:00")])
        #expect(!s.isOn(at: at(30, 5, 59)), "Monday 05:59 after Sunday night")
        #expect(s.isOn(at: at(30, 6)))
        #expect(s.nextChange(after: at(29, 21)) == at(29, 22))
        #expect(s.nextChange(after: at(29, 22)) == at(30, 6))
        #expect(s.nextChange(after: at(30, 6)) == LocalDateTime(year: 2026, month: 12, day: 6, hour: 22))
    }

    @Test func severalRangesAndMergedNeighbours() {
        let s = DisplaySchedule(periods: [
            period("sun-thu 22:30-07:00"),
            period("fri,sat 23:30-09:00"),
            period("daily 12:00-13:00"),
        ])
        #expect(!s.isOn(at: at(23, 12, 30)))
        #expect(s.nextChange(after: at(23, 11)) == at(23, 12))
        #expect(s.nextChange(after: at(23, 12)) == at(23, 13))
        #expect(s.nextChange(after: at(23, 13)) == at(23, 22, 30))
        #expect(s.nextChange(after: at(27, 13)) == at(27, 23, 30), "Friday uses the late period")
        #expect(s.nextChange(after: at(27, 23, 30)) == at(28, 9))
        #expect(!s.isOn(at: at(28, 8, 30)), "Saturday morning sleeps in")
        #expect(s.isOn(at: at(24, 8, 30)), "Tuesday morning does not")
        // Two periods that touch make one off stretch: no change at 02:00.
        let joined = DisplaySchedule(periods: [period("daily 22:00-02:00"), period("daily 02:00-06:00")])
        #expect(joined.nextChange(after: at(23, 23)) == at(24, 6))
    }

    @Test func alwaysOffNeverChanges() {
        let s = DisplaySchedule(periods: [period("daily 00:00-23:59"), period("daily 23:59-00:00")])
        #expect(!s.isOn(at: at(25, 15)))
        #expect(s.nextChange(after: at(25, 15)) == nil)
    }

    // MARK: Wake on touch

    @Test func touchWakesTheScreenForAWhileThenItBlanksAgain() {
        var power = ScreenPower(schedule: DisplaySchedule(periods: [period("daily 22:00-07:00")]), wakeMinutes: 5)
        #expect(power.decision(at: at(23, 23)) == .init(screenOn: false, woken: false, nextChange: at(24, 7)))
        let woke1 = power.touch(at: at(23, 23))
        #expect(woke1, "the waking touch is reported so the app swallows it")
        #expect(power.decision(at: at(23, 23, 2)) == .init(screenOn: true, woken: true, nextChange: at(23, 23, 5)))
        let woke2 = power.touch(at: at(23, 23, 4))
        #expect(!woke2, "touches while awake are normal touches")
        #expect(power.decision(at: at(23, 23, 6)).screenOn, "each touch extends the wake")
        #expect(power.decision(at: at(23, 23, 9)) == .init(screenOn: false, woken: false, nextChange: at(24, 7)))
        // A touch while the schedule has the screen on does nothing special.
        let woke3 = power.touch(at: at(24, 12))
        #expect(!woke3)
        #expect(power.decision(at: at(24, 12)) == .init(screenOn: true, woken: false, nextChange: at(24, 22)))
    }

    @Test func wakeRunningIntoScheduledOnJustStaysOn() {
        var power = ScreenPower(schedule: DisplaySchedule(periods: [period("daily 22:00-07:00")]), wakeMinutes: 10)
        let woke4 = power.touch(at: at(24, 6, 55))
        #expect(woke4)
        #expect(power.decision(at: at(24, 6, 58)) == .init(screenOn: true, woken: true, nextChange: at(24, 22)))
        #expect(power.decision(at: at(24, 7, 2)) == .init(screenOn: true, woken: false, nextChange: at(24, 22)))
        // The old wake does not leak into the next night.
        #expect(!power.decision(at: at(24, 22, 1)).screenOn)
    }

    @Test func wakeDisabledWithZeroMinutes() {
        var power = ScreenPower(config: {
            var s = KioskConfig.Schedule()
            s.periods = [SchedulePeriod(off: TimeOfDay(hour: 20, minute: 0), on: TimeOfDay(hour: 8, minute: 0))]
            s.wakeMinutes = 0
            return s
        }())
        let woke5 = power.touch(at: at(23, 21))
        #expect(!woke5)
        #expect(!power.decision(at: at(23, 21)).screenOn)
    }
}

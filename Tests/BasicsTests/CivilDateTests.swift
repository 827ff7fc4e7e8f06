import Basics
import Testing

@Suite struct CivilDateTests {
    @Test func knownDaysSinceTheEpoch() {
        #expect(CivilDate.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilDate.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilDate.daysSinceEpoch(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilDate.daysSinceEpoch(year: 2024, month: 2, day: 29) == 19_782)
    }

    /// Every day from 1800 to 2200 goes to days and back unchanged, one day apart.
    @Test func daysAndDatesRoundTrip() {
        let first = CivilDate.daysSinceEpoch(year: 1800, month: 1, day: 1)
        let last = CivilDate.daysSinceEpoch(year: 2200, month: 12, day: 31)
        var previous: (year: Int, month: Int, day: Int)? = nil
        for days in first...last {
            let date = CivilDate.date(daysSinceEpoch: days)
            #expect(CivilDate.daysSinceEpoch(year: date.year, month: date.month, day: date.day) == days)
            if let previous {
                let nextDay = date.day == previous.day + 1 && date.month == previous.month
                let nextMonth = date.day == 1 && (date.month == previous.month + 1 || (date.month == 1 && previous.month == 12))
                #expect(nextDay || nextMonth)
            }
            previous = date
        }
    }
}

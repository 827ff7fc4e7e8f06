import TestSupport
import Glibc
import Platform
import Testing

/// Dates and times in a locale's own formats, through glibc.
@Suite struct LocaleTimeFormatTests {
    let thursday = CalendarFields(year: 2026, month: 11, day: 26, hour: 14, minute: 5, second: 9, weekday: 4)
    let morning = CalendarFields(year: 2023, month: 8, day: 4, hour: 9, minute: 7, weekday: 5)

    @Test func cLocale() throws {
        let c = try #require(LocaleTimeFormat(named: "C"))
        #expect(c.time(thursday) == "14:05")
        #expect(c.date(morning) == "08/04/2023", "the year in full")
        #expect(c.day(thursday) == "Thursday 11/26/2026")
    }

    @Test func unknownLocaleIsNil() {
        #expect(LocaleTimeFormat(named: "xx_NOWHERE.UTF-8") == nil)
    }

    /// Locales compiled into a scratch folder with localedef (from Debian's `locales` data),
    /// found through LOCPATH: a 12-hour and a day-first 24-hour one.
    @Test(.enabled(if: access("/usr/share/i18n/locales/de_DE", R_OK) == 0 && access("/usr/bin/localedef", X_OK) == 0))
    func otherLocales() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.path.description
        for name in ["de_DE", "en_US"] {
            #expect(system("localedef -i \(name) -f UTF-8 '\(dir)/\(name).UTF-8' >/dev/null 2>&1") == 0)
        }
        setenv("LOCPATH", dir, 1)
        defer { unsetenv("LOCPATH") }
        let de = try #require(LocaleTimeFormat(named: "de_DE.UTF-8"))
        #expect(de.time(morning) == "09:07")
        #expect(de.day(thursday) == "Donnerstag 26.11.2026")
        let us = try #require(LocaleTimeFormat(named: "en_US.UTF-8"))
        #expect(us.time(thursday) == "2:05 PM")
        #expect(us.time(morning) == "9:07 AM")
        #expect(us.date(morning) == "08/04/2023")
    }
}

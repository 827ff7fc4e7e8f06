@testable import Imaging
import Testing

/// DateTimeOriginal as seconds for date order: the civil-date arithmetic and what is refused.
@Suite struct ExifDateTests {
    func seconds(_ text: String?) -> Int64? { ExifData(dateTimeOriginal: text).dateTimeOriginalSeconds }

    @Test func knownInstants() {
        #expect(seconds("1970:01:01 00:00:00") == 0)
        #expect(seconds("2000:03:01 00:00:00") == 951_868_800)      // after a leap day of a century year
        #expect(seconds("2024:02:29 12:34:56") == 1_709_210_096)
        #expect(seconds("1969:12:31 23:59:59") == -1)
        #expect(seconds("2023:12:24 18:00:01\u{0}") == 1_703_440_801, "the NUL terminator some cameras store")
    }

    @Test func orderFollowsTheDate() throws {
        let dates = ["2019:12:31 23:59:58", "2019:12:31 23:59:59", "2020:01:01 00:00:00", "2021:07:04 10:20:30"]
        let values = try dates.map { try #require(seconds($0)) }
        #expect(values == values.sorted())
        #expect(Set(values).count == values.count)
    }

    @Test func unsetOrMalformedClocksAreNoDate() {
        for text in [nil, "", "0000:00:00 00:00:00", "    :  :     :  :  ", "2021-07-04 10:20:30", "2021:13:04 10:20:30",
                     "2021:07:04 24:00:00", "2021:07:04", "2021:07:0x 10:20:30", "1200:01:01 00:00:00"] {
            #expect(seconds(text) == nil, "\(String(describing: text))")
        }
    }
}

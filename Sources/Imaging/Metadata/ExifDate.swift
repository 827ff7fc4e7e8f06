import Basics

extension ExifData {
    /// DateTimeOriginal as seconds since 1970-01-01 00:00, reading the camera's clock as if it
    /// were UTC (EXIF 2.2 stores no time zone): what date order needs, since photos compare with
    /// each other. Nil when absent or not "YYYY:MM:DD HH:MM:SS" with a real date (cameras with an
    /// unset clock write "0000:00:00 00:00:00" or blanks).
    public var dateTimeOriginalSeconds: Int64? {
        guard let text = dateTimeOriginal else { return nil }
        let bytes = Array(text.utf8.prefix(19))
        guard bytes.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) else { return nil }
                value = value * 10 + Int(bytes[i] - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, ":"), (7, ":"), (10, " "), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ Character(UnicodeScalar(bytes[$0.0])) == $0.1 }),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              year >= 1800, (1...12).contains(month), (1...31).contains(day),
              hour < 24, minute < 60, second < 61
        else { return nil }
        return Int64(CivilDate.daysSinceEpoch(year: year, month: month, day: day)) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }
}

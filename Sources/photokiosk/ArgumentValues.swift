import ArgumentParser
import PhotoKioskApp

/// Command-line values that carry their reason when refused: ArgumentParser prints a thrown
/// error after "The value … is invalid for '--option'", where `init?(argument:)` could only say
/// "invalid".
enum ArgumentValues {
    /// Seconds, megabytes…: any finite number, negative ones included, so the range check
    /// (config file and command line alike) can say what the allowed range is.
    static func number(_ text: String) throws -> Double {
        guard let value = Double(text), value.isFinite else { throw ValidationError("not a number") }
        return value
    }

    static func wholeNumber(_ text: String) throws -> Int {
        guard let value = Int(text) else {
            throw ValidationError(Double(text) == nil ? "not a number" : "not a whole number")
        }
        return value
    }

    static func mode(_ text: String) throws -> KioskConfig.DisplayMode {
        if let problem = KioskConfig.DisplayMode.problem(parsing: text) { throw ValidationError(problem) }
        return KioskConfig.DisplayMode(parsing: text)!
    }

    static func schedulePeriod(_ text: String) throws -> SchedulePeriod {
        switch SchedulePeriod.parse(text) {
        case .success(let period): return period
        case .failure(let problem): throw ValidationError(problem.message)
        }
    }
}

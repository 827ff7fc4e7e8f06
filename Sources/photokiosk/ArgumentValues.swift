import ArgumentParser
import PhotoKioskApp

/// Command-line values that carry their reason when refused: ArgumentParser prints a thrown
/// error after "The value … is invalid for '--option'", where `init?(argument:)` could only say
/// "invalid".
enum ArgumentValues {
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

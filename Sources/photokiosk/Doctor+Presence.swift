import PhotoKioskApp
import Platform

extension Doctor {
    /// The motion sensor as `run` would open it: the line requested and released at once, so a
    /// missing chip, a wrong line or one held by another program shows here (a running kiosk
    /// holds its own line: stop it first).
    static func presenceReport(_ config: KioskConfig) -> String {
        guard let path = config.presence.chipPath else { return "Motion sensor: off (set [presence] chip, e.g. \"gpiochip0\")" }
        let settings = config.presence
        do {
            let line = try GPIOMotionLine(chipPath: path, offset: settings.line, activeLow: settings.activeLevel == .low)
            return "Motion sensor: \(line.sensorName) (\(path)), active \(settings.activeLevel.rawValue): ok, "
                + (line.isActive ? "sees motion now" : "no motion now")
        } catch {
            return "Motion sensor: \(path) line \(settings.line): MISSING: \(error)"
        }
    }
}

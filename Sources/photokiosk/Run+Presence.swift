import Logging
import Platform
import PhotoKioskApp

extension Run {
    /// The motion sensor when `[presence] chip` is set. A chip that is missing or a line another
    /// program holds is one log line: the frame works on as if no sensor were configured.
    static func startMotionSensor(_ config: KioskConfig, app: KioskApp, logger: Logger) -> (any MotionSensor)? {
        guard let path = config.presence.chipPath else { return nil }
        let settings = config.presence
        do {
            let sensor = try GPIOMotionLine(chipPath: path, offset: settings.line, activeLow: settings.activeLevel == .low)
            try app.attachMotionSensor(sensor, settings: settings)
            logger.info("motion sensor: \(sensor.sensorName) (\(path)), active \(settings.activeLevel.rawValue); the screen blanks after \(settings.timeout) s without motion")
            return sensor
        } catch {
            logger.warning("motion sensor \(path) line \(settings.line) not used: \(error); the frame works on without it")
            return nil
        }
    }
}

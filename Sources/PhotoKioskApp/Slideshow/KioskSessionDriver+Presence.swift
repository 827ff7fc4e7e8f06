import Logging
import Platform

/// The motion sensor in the session: motion wakes the screen and counts as activity, no motion
/// for `[presence] timeout` blanks it (see `KioskSession` for the rules with the schedule).
extension KioskSessionDriver {
    /// Listens to `sensor` from now on; the no-motion time counts from now.
    func sense(_ sensor: any MotionSensor, settings: KioskConfig.Presence) throws(PlatformError) {
        try sensor.attach(to: app.host.loop) { [weak self] active in self?.motion(active: active) }
        motionSensor = sensor
        apply(session.sensePresence(settings, now: now, local: localTime()))
        // A sensor that already sees motion (someone at the frame as it starts).
        if sensor.isActive { motion(active: true) } else { schedule() }
    }

    func motion(active: Bool) {
        let wasOn = session.screenOn
        logger.debug("motion sensor: \(active ? "motion" : "still")")
        let update = session.motion(active: active, now: now, local: localTime())
        if update.screenChanged, update.screenOn, !wasOn { logger.info("screen woken by motion") }
        apply(update)
        schedule()
    }

    /// True while the motion sensor sees motion; nil without a sensor.
    public var motionDetected: Bool? { session.presence?.motionNow }
}

extension KioskApp {
    /// Blanks the screen when `sensor` sees nobody for `settings.timeout` seconds and wakes it on
    /// motion. Call after `startKioskSession`.
    public func attachMotionSensor(_ sensor: any MotionSensor, settings: KioskConfig.Presence) throws(PlatformError) {
        guard let sessionDriver else { return }
        try sessionDriver.sense(sensor, settings: settings)
    }
}

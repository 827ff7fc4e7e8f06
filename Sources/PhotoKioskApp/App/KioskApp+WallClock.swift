import Platform

extension KioskApp {
    /// Watches for the wall clock being set (`WallClockWatch`). Intervals (slideshow, idle
    /// timeout, animations) run on the monotonic clock and need nothing; the display schedule
    /// and the overlay's clock follow the wall clock, so they are re-evaluated when it jumps.
    func startWallClockWatch() {
        do {
            wallClockWatch = try WallClockWatch(loop: host.loop) { [weak self] in self?.wallClockWasSet() }
        } catch {
            logger.warning("wall clock changes are noticed only every \(Int(KioskSessionDriver.scheduleRecheck)) s: \(error)")
        }
    }

    /// The wall clock was set (NTP's first sync after a boot at 1970, `date -s`): the schedule
    /// decides again from the new local time, and the overlay's clock shows it.
    public func wallClockWasSet() {
        logger.info("wall clock set: local time now \(wallClock())")
        sessionDriver?.tick()
        infoOverlay?.wallClockWasSet()
    }
}

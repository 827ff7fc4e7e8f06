import Logging
import Platform

/// What the remote page, MQTT and the CLI ask of the session (through `KioskApp.perform`): each
/// request changes the session, shows what changed and re-arms the timer.
extension KioskSessionDriver {
    func requestScreen(on: Bool) {
        apply(session.requestScreen(on: on, now: now, local: localTime()))
        logger.info("screen \(on ? "on" : "off") on request")
        schedule()
    }

    func requestSlideshow(on: Bool) {
        session.navigate(to: app.currentScreen)
        if on {
            guard !isSlideshowRunning else { return }
            session.startSlideshow(now: now)
            showSlideshowFrame()
        } else if session.stopSlideshow(now: now) != nil {
            stopSlideshow()
        }
        schedule()
    }

    /// True when the photo changed.
    func requestStep(forward: Bool) -> Bool {
        guard session.step(forward: forward, now: now) else { return false }
        showSlideshowFrame()
        schedule()
        return true
    }

    func requestPause(_ paused: Bool) {
        if paused { session.pause() } else { session.resume(now: now) }
        logger.info("slideshow \(paused ? "paused" : "resumed") on request")
        schedule()
    }
}

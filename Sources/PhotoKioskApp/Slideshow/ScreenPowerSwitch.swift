import Logging
import Platform

/// Switches the screen on and off through a `ScreenPowerControl` and lets the app know: a dark
/// screen stops the slideshow's motion, a woken one is drawn afresh, the information overlay
/// hears of both, and so does the TV over HDMI-CEC when one is attached.
final class ScreenPowerSwitch {
    /// What blanks the screen; nil: nothing can, and the switch does nothing.
    let control: (any ScreenPowerControl)?
    /// The TV switched with the screen (standby on blank, on at wake); nil: none.
    var tv: TVPower?
    private unowned let app: KioskApp
    private let logger: Logger

    init(control: (any ScreenPowerControl)?, app: KioskApp, logger: Logger) {
        self.control = control
        self.app = app
        self.logger = logger
    }

    func set(on: Bool, slideshowView: SlideshowView?) {
        tv?.screenChanged(on: on)
        guard let control else { return }
        if !on { slideshowView?.stopAnimating() }
        do {
            try control.setScreenOn(on)
            logger.info("screen \(on ? "on" : "off") (\(control.powerControlName))")
        } catch {
            logger.warning("cannot switch the screen \(on ? "on" : "off"): \(error)")
        }
        if on { app.window.setNeedsDisplayAll() }
        app.infoOverlay?.screenPowerChanged(on: on)
    }
}

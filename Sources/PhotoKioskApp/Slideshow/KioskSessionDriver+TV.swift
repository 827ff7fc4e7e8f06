import Logging
import Platform

/// The TV over HDMI-CEC in the session: every time the screen is switched (schedule, idle,
/// presence, a touch), the TV hears of it (see `TVPowerPolicy` for what it is sent).
extension KioskSessionDriver {
    func attachTV(_ tv: TVPower) {
        screenPower.tv = tv
    }

    /// The TV switched with the screen; nil without one.
    public var tv: TVPower? { screenPower.tv }
}

extension KioskApp {
    /// Switches the TV that `link` reaches with the screen from now on; the adapter's reports go
    /// to the returned `TVPower` (`handle`). Call after `startKioskSession`; nil without a session.
    public func attachTV(_ link: any TVLink, settings: TVPowerPolicy.Settings, logger: Logger) -> TVPower? {
        guard let sessionDriver else { return nil }
        let tv = TVPower(link: link, settings: settings, screenOn: sessionDriver.session.screenOn,
                         clock: { [weak self] in self?.window.scheduler.now ?? 0 }, logger: logger)
        sessionDriver.attachTV(tv)
        return tv
    }
}

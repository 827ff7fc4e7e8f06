import Imaging
import Logging
import Platform

extension KioskApp {
    /// Starts the kiosk session: the slideshow after the idle timeout, the display schedule and
    /// resuming where the last run was. Call after `start()`.
    /// - Parameters:
    ///   - resume: where the position is saved between runs; nil: start fresh, save nothing.
    ///   - power: what blanks the screen; nil: the display itself if it can (DPMS, or the
    ///     headless screen's recorded state).
    ///   - localTime: the wall clock the schedule reads (tests pass their own).
    @discardableResult
    public func startKioskSession(resume: ResumeStore?, initial: ResumeState? = nil, power: (any ScreenPowerControl)? = nil,
                               seed: UInt64 = .random(in: 0...UInt64.max),
                               localTime: @escaping () -> LocalDateTime = LocalDateTime.current) -> KioskSessionDriver {
        let driver = KioskSessionDriver(app: self, config: config, store: resume, initial: initial,
                                        power: power ?? (host.display as? any ScreenPowerControl),
                                        seed: seed, localTime: localTime, logger: logger)
        sessionDriver = driver
        let resize = host.onResize
        host.onResize = { [weak driver] size in
            resize?(size)
            driver?.screenResized()
        }
        driver.begin()
        return driver
    }

    /// The slideshow running from `photo` at once (snapshots), nothing saved.
    @discardableResult
    public func startKioskSession(resume: ResumeStore?, startingSlideshowAt photo: RawPath) -> KioskSessionDriver {
        startKioskSession(resume: resume, initial: ResumeState(screen: currentScreen, photo: photo, inSlideshow: true))
    }

    /// The library's photos as the slideshow names them.
    var photoPaths: [RawPath] {
        (0..<photos.count).map { photos[$0].path }
    }

    /// Where the person is, for the slideshow's way back and the resume state.
    public var currentScreen: KioskScreen {
        // The album is remembered by its photo's path: an index would move with the order.
        if let album, album.centerPageIndex < photos.count {
            return .photo(path: photos[album.centerPageIndex].path)
        }
        return .grid(scrollOffset: grid.contentOffset.y)
    }
}

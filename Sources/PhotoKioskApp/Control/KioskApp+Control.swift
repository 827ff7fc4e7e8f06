import Imaging

/// The one door for requests from outside (web page, MQTT): commands and status.
extension KioskApp {
    public func perform(_ command: KioskCommand) -> KioskCommandOutcome {
        if case .settings(let newConfig) = command {
            applySettings(newConfig)
            return .done
        }
        guard let driver = sessionDriver else { return .refused("the kiosk's slideshow and schedule are not running") }
        switch command {
        case .next, .previous:
            let forward = command == .next
            if driver.isSlideshowRunning {
                return driver.requestStep(forward: forward) ? .done : .refused(forward ? "no other photo" : "no photo before this one")
            }
            guard let album else { return .refused("the grid shows no single photo: open one or start the slideshow") }
            let target = album.centerPageIndex + (forward ? 1 : -1)
            guard target >= 0, target < photos.count else { return .refused(forward ? "this is the last photo" : "this is the first photo") }
            album.setCenterPageIndex(target, animated: true)
            return .done
        case .pause:
            driver.requestPause(true)
            return .done
        case .resume:
            driver.requestPause(false)
            return .done
        case .screen(let on):
            driver.requestScreen(on: on)
            return .done
        case .slideshow(let on):
            guard !on || photos.count > 0 else { return .refused("no photos to show") }
            driver.requestSlideshow(on: on)
            return .done
        case .settings:
            return .done   // applied above, with or without a session
        }
    }

    public var status: KioskStatus {
        let running = sessionDriver?.isSlideshowRunning ?? false
        var photo: RawPath?
        if running {
            photo = sessionDriver?.session.slideshow.sequencer.current
        } else if let album, album.centerPageIndex < photos.count {
            photo = photos[album.centerPageIndex].path
        }
        let screenOn = sessionDriver?.session.screenOn ?? true
        let screen: KioskStatus.Screen = !screenOn ? .blank : running ? .slideshow : album != nil ? .album : .grid
        return KioskStatus(screen: screen, photo: photo,
                           photoIndex: photo.flatMap { photos.index(at: $0) },
                           photoCount: photos.count, isSlideshowRunning: running,
                           isPaused: sessionDriver?.session.slideshow.isPaused ?? false, isScreenOn: screenOn,
                           motion: sessionDriver?.motionDetected)
    }
}

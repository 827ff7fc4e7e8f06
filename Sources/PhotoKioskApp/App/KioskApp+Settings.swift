import Imaging

extension KioskApp {
    /// Settings changed on the remote page (checked and saved by `SettingsStore`): each part of
    /// the app takes its share now, without a restart. The slideshow and the schedule through the
    /// session driver; the overlay is rebuilt; the library is sorted again; kiosk mode takes the
    /// quit keys away (or gives them back).
    public func applySettings(_ newConfig: KioskConfig) {
        let old = config
        config = newConfig
        host.allowsQuit = !newConfig.kiosk
        if newConfig.library.sort != old.library.sort {
            // By what the scan read: EXIF dates are read while scanning in date order, so a switch
            // to date order sorts by file dates until the next start reads the EXIF ones.
            photos.setOrder(newConfig.library.sort == .date ? .dateTaken : .name)
            grid.reloadData()
            albumPresenter.libraryDidChange()
            sessionDriver?.libraryDidChange()
        }
        if newConfig.overlay != old.overlay { rebuildInfoOverlay() }
        sessionDriver?.reconfigure(newConfig)
        onSettingsApplied?(newConfig)
        if old != newConfig { logger.info("settings applied: \(changedSettings(from: old, to: newConfig).joined(separator: ", "))") }
    }

    private func rebuildInfoOverlay() {
        if let infoOverlay {
            infoOverlay.hide()
            infoOverlay.view.removeFromSuperview()
        }
        infoOverlay = makeInfoOverlay()
        if sessionDriver?.isSlideshowRunning == true, let photo = sessionDriver?.session.slideshow.sequencer.current {
            overlaySlideshowShows(photo)
        } else {
            overlayScreenChanged()
        }
    }

    /// The settings' names whose values differ, for the log.
    private func changedSettings(from old: KioskConfig, to new: KioskConfig) -> [String] {
        guard case .object(let a) = old.settingsJSON, case .object(let b) = new.settingsJSON else { return [] }
        var changed: [String] = []
        for ((table, before), (_, after)) in zip(a, b) {
            if case .object(let x) = before, case .object(let y) = after {
                for ((key, u), (_, v)) in zip(x, y) where u != v { changed.append("\(table).\(key) = \(v.text)") }
            } else if before != after {
                changed.append("\(table) = \(after.text)")
            }
        }
        return changed
    }
}

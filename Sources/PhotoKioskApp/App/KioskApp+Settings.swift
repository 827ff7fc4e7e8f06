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
        if newConfig.sources != old.sources { sourcesChanged(from: old.sources, to: newConfig.sources) }
        sessionDriver?.reconfigure(newConfig)
        onSettingsApplied?(newConfig)
        if old != newConfig { logger.info("settings applied: \(changedSettings(from: old, to: newConfig).joined(separator: ", "))") }
    }

    /// A source added on the phone page is shown from its folder (which photokiosk-sync fills,
    /// `KioskPaths.sourceFolder`) without a restart; a removed one's folder leaves the library
    /// (its files stay on disk).
    private func sourcesChanged(from old: [KioskConfig.Source], to new: [KioskConfig.Source]) {
        guard let stateDirectory else {
            logger.notice("settings: photo sources changed, but without a state folder their folders are not known")
            return
        }
        let folder = { (source: KioskConfig.Source) in KioskPaths.sourceFolder(source.name, in: stateDirectory) }
        let removed = Set(old.map(folder))
        var folders = libraryFolders.filter { !removed.contains($0) }
        for added in new.map(folder) where !folders.contains(added) { folders.append(added) }
        guard folders != libraryFolders else { return }
        libraryFolders = folders
        logger.info("library: photo sources changed; the folders are now \(folders.joined(separator: ", "))")
        libraryHold.run { [weak self] in
            guard let self else { return }
            if self.isScanFinished {
                self.libraryWatcher.changeRoots(to: folders.map { RawPath($0) })
            } else {
                self.pendingRoots = folders
            }
        }
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

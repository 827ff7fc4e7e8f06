extension KioskConfig {
    /// Allowed ranges, shared by the file parser and the command-line merge so both refuse the
    /// same values with the same words.
    public func firstProblem() -> (key: String, message: String)? { problems().first }

    /// Every value outside its allowed range, in the order of the options in the file.
    public func problems() -> [(key: String, message: String)] {
        func outside<T: Comparable>(_ value: T, _ range: ClosedRange<T>, _ unit: String) -> String? {
            range.contains(value) ? nil : "\(value) is out of range (\(range.lowerBound) to \(range.upperBound)\(unit))"
        }
        let checks: [(String, String?)] = [
            ("library.folders", library.folders.isEmpty ? "needs at least one folder" :
                library.folders.contains(where: \.isEmpty) ? "contains an empty folder name" : nil),
            ("library.thumbnail_size", outside(library.thumbnailSize, 32...2048, " points")),
            ("cache.memory_mb", outside(cache.memoryMB, 16...65536, " MB")),
            ("cache.disk_mb", outside(cache.diskMB, 0...10_000_000, " MB; 0 turns the disk cache off")),
            ("slideshow.idle_timeout", outside(slideshow.idleTimeout, 0...604_800, " seconds; 0 starts in the slideshow")),
            ("slideshow.interval", outside(slideshow.interval, 1...86_400, " seconds")),
            ("slideshow.transition_duration", outside(slideshow.transitionDuration, 0...30, " seconds")
                ?? (slideshow.transition != .none && slideshow.transitionDuration >= slideshow.interval
                    ? "\(slideshow.transitionDuration) s must be shorter than slideshow.interval (\(slideshow.interval) s)"
                    : nil)),
            ("schedule.wake_minutes", outside(schedule.wakeMinutes, 0...1440, " minutes; 0 means touches do not wake the screen")),
        ] + remoteProblems()
        return checks.compactMap { key, problem in problem.map { (key, $0) } } + mqtt.problems()
    }

    /// Empty strings and "auto" mean "choose for me".
    mutating func normalize() {
        if display.connector == "" || display.connector == "auto" { display.connector = nil }
        if cache.directory == "" { cache.directory = nil }
        if remote.uploadFolder == "" { remote.uploadFolder = nil }
        mqtt.normalize()
    }
}

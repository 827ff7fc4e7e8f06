import ArgumentParser
import Glibc
import Logging
import PhotoKioskApp
import Platform
import SystemAccess
import SystemPackage

/// Turns the resolved configuration into the objects the commands need.
enum Bootstrap {
    private static let loggingStarted: Void = {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .trace
            return handler
        }
    }()

    /// Log lines go to stderr (journald collects them under systemd).
    static func logger(level: Logger.Level) -> Logger {
        _ = loggingStarted
        var logger = Logger(label: "photokiosk")
        logger.logLevel = level
        return logger
    }

    /// Failing storage is said once when it starts ("storage failing since …") and once when it
    /// is over ("storage writes work again"); the failures between are only counted (the status
    /// JSON and `doctor` show them). docs/failing-storage.md says what the kernel does meanwhile.
    static func reportStorageHealth(to logger: Logger) {
        StorageHealth.shared.setObserver { change in
            switch change {
            case .failing: logger.warning("\(StorageHealth.logLine(change))")
            case .recovered: logger.notice("\(StorageHealth.logLine(change))")
            }
        }
    }

    /// The configured folders; when none was given explicitly and the default folder does not
    /// exist, the bundled sample photos, so a fresh install shows something.
    static func photoFolders(config: KioskConfig, explicit: Bool, logger: Logger) throws -> [String] {
        let configured = config.library.folders
        guard let choice = folderChoice(config: config, explicit: explicit) else {
            throw CommandFailure("no photo folder: pass --photos DIR (the default \(configured.joined()) does not exist)")
        }
        guard !choice.folders.isEmpty else { throw CommandFailure("no photo folder given") }
        for folder in choice.folders where !isDirectory(folder) {
            logger.warning("photo folder \(folder) does not exist (yet): it is watched for when it appears")
        }
        return choice.folders
    }

    /// The folders a frame shows (`doctor` reports on the same): the configured ones, or the
    /// bundled samples while the default folder does not exist; nil when neither is there.
    static func folderChoice(config: KioskConfig, explicit: Bool) -> (folders: [String], samples: Bool)? {
        let configured = config.library.folders
        // A configured source is shown even before its first sync (its folder is watched for).
        if explicit || configured != KioskConfig().library.folders || configured.contains(where: isDirectory)
            || !config.sources.isEmpty {
            return (config.libraryFolders(paths(config: config)), false)
        }
        return ResourceLocator.bundledPhotos().map { ([$0], true) }
    }

    static func paths(config: KioskConfig) -> KioskPaths {
        var environment: [String: String] = [:]
        for name in ["XDG_CACHE_HOME", "XDG_STATE_HOME", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        // An ordinary user cannot write /var/lib or /var/cache: use the XDG defaults in $HOME.
        if geteuid() != 0, let home = environment["HOME"], home.hasPrefix("/") {
            if environment["XDG_STATE_HOME"] == nil { environment["XDG_STATE_HOME"] = home + "/.local/state" }
            if environment["XDG_CACHE_HOME"] == nil { environment["XDG_CACHE_HOME"] = home + "/.cache" }
        }
        return KioskPaths(environment: environment, config: config)
    }

    static func cacheDirectory(config: KioskConfig) -> String? {
        paths(config: config).cacheDirectory
    }

    /// The cache folder `run` uses: on a read-only root, the state folder's `cache` (one notice).
    static func usableCacheDirectory(config: KioskConfig, logger: Logger) -> String {
        let (directory, movedFrom) = paths(config: config).usableCacheDirectory(
            configured: config.cache.directory != nil,
            isReadOnly: { FileSystemCalls.isOnReadOnlyFileSystem(FilePath($0)) })
        if let movedFrom {
            logger.notice("cache: \(movedFrom) is on a read-only file system; thumbnails are kept in \(directory)")
        }
        return directory
    }

    /// Where the custom order and the resume state live.
    static func stateDirectory(config: KioskConfig) -> String {
        paths(config: config).stateDirectory
    }

    static func displayOptions(_ display: KioskConfig.Display) -> DisplayOptions {
        DisplayOptions(backend: DisplayBackend(rawValue: display.backend.rawValue) ?? .auto,
                       rotation: Rotation(degrees: display.rotation.rawValue) ?? .none,
                       connector: display.connector,
                       mode: display.mode.map { ModeRequest(width: $0.width, height: $0.height) })
    }

    /// The configured screen, or a headless screen of `headlessSize` when no display device is usable.
    static func openScreen(_ display: KioskConfig.Display, headlessSize: KioskConfig.DisplayMode,
                           logger: Logger) throws -> OpenedDisplay {
        var options = displayOptions(display)
        options.headlessWidth = headlessSize.width
        options.headlessHeight = headlessSize.height
        return try openDisplay(options, logger: logger)
    }

    /// The screen a demo runs on: the chosen backend, or a headless screen of `headlessSize`.
    static func openDemoScreen(backend: KioskConfig.DisplayBackend, rotation: KioskConfig.Rotation,
                               headlessSize: KioskConfig.DisplayMode, logger: Logger) throws -> OpenedDisplay {
        var display = KioskConfig.Display()
        display.backend = backend
        display.rotation = rotation
        return try openScreen(display, headlessSize: headlessSize, logger: logger)
    }

    static func inputBackend(_ backend: KioskConfig.InputBackend) -> InputBackend {
        InputBackend(rawValue: backend.rawValue) ?? .auto
    }

    private static func isDirectory(_ path: String) -> Bool {
        ResourceLocator.isDirectory(path)
    }
}

/// One line on stderr.
func printError(_ message: String) {
    try? FileDescriptor.standardError.writeAll(Array((message + "\n").utf8))
}

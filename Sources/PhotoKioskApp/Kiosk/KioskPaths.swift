/// Where the kiosk keeps its state and cache, from the environment (passed in, so tests and the
/// systemd unit decide): $XDG_STATE_HOME/photokiosk else /var/lib/photokiosk, and
/// $XDG_CACHE_HOME/photokiosk else /var/cache/photokiosk, unless the config names a cache dir.
public struct KioskPaths: Equatable, Sendable {
    public var stateDirectory: String
    public var cacheDirectory: String

    public init(environment: [String: String], config: KioskConfig) {
        func under(_ variable: String, _ fallback: String) -> String {
            if let base = environment[variable], base.hasPrefix("/") { return base + "/photokiosk" }
            return fallback
        }
        stateDirectory = under("XDG_STATE_HOME", "/var/lib/photokiosk")
        cacheDirectory = config.cache.directory ?? under("XDG_CACHE_HOME", "/var/cache/photokiosk")
    }

    public var resumeFile: String { stateDirectory + "/resume" }
    /// The remote page's token once the frame's info screen made a new one (`PairingTokenStore`).
    public var pairingTokenFile: String { stateDirectory + "/remote-token" }
    /// Where photokiosk-sync puts a source's files (a folder of the library) and its status;
    /// deploy/photokiosk-sync derives the same two from $XDG_STATE_HOME.
    public func folder(of source: KioskConfig.Source) -> String { Self.sourceFolder(source.name, in: stateDirectory) }
    public static func sourceFolder(_ name: String, in stateDirectory: String) -> String { stateDirectory + "/sources/" + name }
    public func statusFile(of source: KioskConfig.Source) -> String { Self.sourceStatusFile(source.name, in: stateDirectory) }
    public static func sourceStatusFile(_ name: String, in stateDirectory: String) -> String {
        stateDirectory + "/source-status/" + name + ".toml"
    }
}

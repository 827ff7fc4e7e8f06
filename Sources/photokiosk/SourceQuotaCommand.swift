import ArgumentParser
import PhotoKioskApp
import SystemAccess

/// Run by photokiosk-sync after a source's sync when it has a quota: keeps the newest photos by
/// date taken that fit (`SourceQuota`), deletes the rest here and remembers them, so the next
/// sync leaves them out. Prints the status's words when photos were left out.
struct SourceQuotaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "source-quota",
        abstract: "Keep a synced source within its quota_mb: the newest photos by date taken (run by photokiosk-sync).")

    @OptionGroup var configFile: ConfigFileOption

    @Option(help: "The server's photo paths, one a line, relative to the remote (rclone lsf -R).")
    var listing: String

    @Argument(help: "The source's name.")
    var name: String

    func run() throws {
        let config = try configFile.load()
        guard let source = config.sources.first(where: { $0.name == name }) else {
            throw ValidationError("no [[source]] named \"\(name)\"")
        }
        guard source.quotaMB > 0 else { return }
        let paths = Bootstrap.paths(config: config)
        guard let bytes = AtomicFile.read(listing, limit: 256 << 20) else { throw ValidationError("cannot read \(listing)") }
        let serverPaths = Set(String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init))
        let status = paths.statusFile(of: source)
        let base = String(status.dropLast(".toml".count))
        if let note = try SourceQuota.apply(folder: paths.folder(of: source), quotaMB: source.quotaMB, serverPaths: serverPaths,
                                            leftOutFile: base + ".left-out", excludeFile: base + ".filter",
                                            logger: Bootstrap.logger(level: .warning)) {
            print(note)
        }
    }
}

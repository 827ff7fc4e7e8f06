import ArgumentParser
import Glibc
import Imaging
import SystemAccess
import SystemPackage

/// Writes GStreamer's plugin registry in a short-lived process of its own, so the kiosk's first
/// clip reads a registry instead of loading every plugin into the kiosk (with the plugin scanner
/// off, as the kiosk starts no program, a missing or stale registry makes GStreamer load each
/// plugin in-process: about 40-70 MB more resident memory for the kiosk's whole life). The
/// Debian package runs it after installing and whenever a GStreamer plugin package changes.
struct PrepareClips: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prepare-clips",
        abstract: "Write GStreamer's plugin registry for video clips, so the kiosk does not read every plugin itself.",
        discussion: """
        Loads GStreamer in this process, which reads the installed plugins and saves what it found \
        in the registry the kiosk's service reads (GST_REGISTRY_1_0, as photokiosk.service sets it). \
        The package runs it after installing and whenever a GStreamer plugin package is installed or \
        upgraded. By hand, as the service's user with its HOME (GStreamer reads every plugin again when \
        a value a plugin depends on, such as HOME, differs): sudo -u photokiosk photokiosk prepare-clips. \
        Exits 0 when GStreamer is not installed (nothing to prepare).
        """)

    /// The registry photokiosk.service names in GST_REGISTRY_1_0 (deploy/photokiosk.service).
    static let serviceRegistry = "/var/cache/photokiosk/gstreamer-registry.bin"

    @Option(name: .long, help: ArgumentHelp(
        "The registry file to write.",
        discussion: "Default: $GST_REGISTRY_1_0 when set, else \(PrepareClips.serviceRegistry) (the service's).",
        valueName: "path"))
    var registry: String?

    func run() throws {
        let path = registry ?? Self.environmentRegistry() ?? Self.serviceRegistry
        // GStreamer reads the registry's place from its environment only.
        setenv("GST_REGISTRY_1_0", path, 1)
        let file = FilePath(path)
        var folder = file
        folder.removeLastComponent()
        do {
            try FileSystemCalls.checkWritable(folder.isEmpty ? "." : folder)
        } catch {
            throw CommandFailure("cannot write GStreamer's registry \(path): \(error) (run it as the kiosk's user, e.g. sudo -u photokiosk photokiosk prepare-clips)")
        }
        let before = Self.stamp(file)
        if let problem = ClipDecoder.libraryProblem() {
            // dlopen's own words for a library that is not there: no GStreamer, no clips to prepare.
            if problem.contains("cannot open shared object file") {
                print("GStreamer is not installed: nothing to prepare (\(problem))")
                return
            }
            throw CommandFailure("GStreamer did not load: \(problem)")
        }
        guard let after = Self.stamp(file) else {
            throw CommandFailure("GStreamer loaded but saved no registry at \(path)")
        }
        let state = after == before ? "already up to date" : "written"
        print("GStreamer registry \(path): \(state) (\(after.size / 1024) kB)")
    }

    static func environmentRegistry() -> String? {
        guard let value = getenv("GST_REGISTRY_1_0"), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    /// What tells a rewritten registry from an untouched one: GStreamer saves it through a
    /// temporary file renamed over it, so the inode changes, and the time with it.
    struct Stamp: Equatable {
        let inode: UInt64, seconds: Int, nanoseconds: Int, size: Int64
    }

    static func stamp(_ file: FilePath) -> Stamp? {
        guard let info = try? FileSystemCalls.status(file), info.type == .regular else { return nil }
        return Stamp(inode: UInt64(info.inode.rawValue), seconds: info.st_mtim.tv_sec,
                     nanoseconds: info.st_mtim.tv_nsec, size: info.size)
    }
}

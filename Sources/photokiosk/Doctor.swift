import ArgumentParser
import Graphics
import Imaging
import PhotoKioskApp
import Platform
import RemoteServer

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check screens, input devices, permissions, photo folders, the config file, the time zone and clock, and say what would be used.",
        discussion: "Exits with status 78 when the config file has a mistake (each one is listed). Run it as the service's user: sudo -u photokiosk photokiosk doctor")

    @OptionGroup var configFile: ConfigFileOption

    /// The user the systemd unit runs as (deploy/photokiosk.service, debian/photokiosk.sysusers).
    static let serviceUser = "photokiosk"

    func run() throws {
        print(platformReport())
        let path = configFile.path
        let loaded = Self.loadConfig(path: path, mustExist: configFile.mustExist)
        print(loaded.report)
        print(Self.settingsReport(over: loaded.config ?? KioskConfig()))
        let resolved = loaded.config ?? KioskConfig()
        let folders = Self.folderReport(Bootstrap.folderChoice(config: resolved, explicit: false)
                                        ?? (resolved.library.folders, false))
        print(folders.report)
        print(Self.storageReport(resolved))
        print(Self.timeReport(TimeSettings.current()))
        let remote = loaded.config.map { Self.remoteReport($0, path: path) } ?? (line: "Remote page: unknown (the config file has mistakes, see above)", summary: "unknown")
        print(remote.line)
        print(Self.presenceReport(resolved))
        print(Self.cecReport(resolved))
        print(Self.soundReport(resolved, problem: resolved.sound.clips ? ClipSound.playerProblem() : nil))
        print(Self.sourcesReport(resolved))
        print(Self.syncthingReport(resolved))
        print(optionalLibrariesReport())
        let display = displayChoiceSummary(Bootstrap.displayOptions(resolved.display))
        print("Would use: \(folders.summary); display \(display); remote page \(remote.summary)")
        if loaded.config == nil { throw ExitCode(GeneralOptions.configErrorExitCode) }
    }

    // MARK: Config

    /// The file checked on its own line, every mistake on a line of its own.
    static func loadConfig(path: String, mustExist: Bool) -> (config: KioskConfig?, report: String) {
        do {
            let config = try KioskConfig.load(path: path, mustExist: mustExist)
            let present = ResourceLocator.isRegularFile(path)
            return (config, "Config: \(path): " + (present ? "ok" : "absent, the defaults apply"))
        } catch {
            let mistakes = error.allMistakes
            return (nil, (["Config: \(path): BROKEN, \(counted(mistakes.count, "mistake")); the kiosk will not start until it is fixed:"]
                          + mistakes.map { "  \($0)" }).joined(separator: "\n"))
        }
    }

    // MARK: Photo folders

    /// Each folder: exists, the service user can list it, how many photos it holds, and
    /// whether the service's sandbox hides it.
    static func folderReport(_ choice: (folders: [String], samples: Bool)) -> (report: String, summary: String) {
        let account = FolderAccess.account(named: serviceUser) ?? FolderAccess.currentAccount()
        var lines = ["Photo folders (as user \(account.name)\(choice.samples ? "; the default folder does not exist, so the bundled samples" : "")):"]
        var usable: [String] = []
        var total = 0
        for folder in choice.folders {
            let check = FolderCheck(folder: folder, account: account)
            lines.append("  \(folder): \(check.verdict)")
            if let count = check.photoCount, count > 0, check.problem == nil {
                usable.append(folder)
                total += count
            }
        }
        let summary = usable.isEmpty
            ? "no photo folder with photos (the frame shows what is wrong)"
            : "\(counted(total, "photo")) in \(usable.joined(separator: ", "))"
        return (lines.joined(separator: "\n"), summary)
    }

    // MARK: Time

    static func timeReport(_ time: TimeSettings) -> String {
        let zone = time.zone.map { "\($0) (from \(time.zoneSource))" }
            ?? "UTC: \(time.zoneSource) (set one: sudo timedatectl set-timezone Europe/Berlin)"
        let sync: String
        switch time.isSynchronized {
        case true?: sync = "synchronised" + (time.timesyncdSynchronized ? " (systemd-timesyncd)" : "")
        case false?: sync = "NOT synchronised: the schedule may switch at the wrong time until the network sets it (timedatectl; systemd-timesyncd)"
        case nil: sync = "unknown (adjtimex failed)"
        }
        return "Time: zone \(zone); clock \(sync)"
    }

    // MARK: Remote page and libraries

    /// The libraries loaded only when used (HEIF/AVIF photos, video clips, MQTT, the remote page): whether
    /// each loads here, so a missing one shows before a photo or a setting needs it.
    func optionalLibrariesReport() -> String {
        let libraries: [(name: String, use: String, problem: String?)] = [
            ("libheif", "HEIF/AVIF photos", HEIFDecoder.libraryProblem()),
            ("GStreamer", "video clips", ClipDecoder.libraryProblem()),
            ("libyuv", "playing video clips", VideoFrame.loadConverter()),
            ("libmosquitto", "MQTT", MQTTClient.libraryLoadProblem()),
            ("libmicrohttpd", "remote page", HTTPServer.libraryLoadProblem()),
        ]
        return "Libraries loaded when used:\n" + libraries.map { library in
            "  \(library.name) (\(library.use)): " + (library.problem.map { "MISSING: \($0)" } ?? "ok")
        }.joined(separator: "\n")
    }

    /// Whether clips play their sound, where, and what is missing for it (the device itself is
    /// not opened: the running kiosk may hold it).
    static func soundReport(_ config: KioskConfig, problem: String?) -> String {
        guard config.sound.clips else { return "Sound: off, clips play muted (set [sound] clips = true)" }
        if let problem { return "Sound: on (\(config.sound.device)), but clips will play muted: \(problem)" }
        return "Sound: album clips play on ALSA device \(config.sound.device) (`aplay -L` lists the others)"
    }

    /// The remote page's address(es) when `[remote] listen` is set, or why there is none.
    static func remoteReport(_ config: KioskConfig, path: String) -> (line: String, summary: String) {
        guard let listen = config.remote.listen else {
            return ("Remote page: off (set [remote] listen in \(path), e.g. \"0.0.0.0:8080\")", "off")
        }
        let hosts = listen.host == "0.0.0.0" || listen.host == "::" ? LocalAddresses.ipv4() : [listen.host]
        let urls = hosts.map { "http://\(KioskConfig.ListenAddress(host: $0, port: listen.port))/" }
        let addresses = urls.isEmpty ? "listening on \(listen), but this computer has no network address yet" : urls.joined(separator: "  ")
        return ("Remote page: \(addresses) (token: [remote] token in \(path))", urls.first ?? "on \(listen)")
    }
}

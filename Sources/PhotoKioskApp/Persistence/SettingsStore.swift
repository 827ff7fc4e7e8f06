import Logging
import SystemAccess
import SystemPackage

/// The settings changed on the remote page, kept across restarts in `<state directory>/settings.toml`.
/// For the options it holds it wins over config.toml (and the command line); options it does not
/// hold come from there. It is TOML so a person can read it, and it is checked by the config's own
/// rules (`KioskConfig.applying(settings:source:)`) when read and before every write. Written
/// atomically (`AtomicFile`): a power cut leaves the old settings or the new, never a torn file.
public final class SettingsStore {
    public enum ChangeError: Error, CustomStringConvertible {
        /// Refused by the config's rules; nothing was saved or applied.
        case invalid(ConfigError)
        /// Valid, but the file could not be written (the reason); nothing was applied.
        case notSaved(String)

        public var description: String {
            switch self {
            case .invalid(let error):
                error.allMistakes.map { ($0.key.map { $0 + ": " } ?? "") + $0.message }.joined(separator: "; ")
            case .notSaved(let reason): "the settings could not be saved: \(reason)"
            }
        }
    }

    public let file: String
    private let directory: String
    private let logger: Logger
    /// What the file holds (after `load`, or the last successful `change`).
    public private(set) var held = TOMLTable(line: 1, explicitlyDefined: true)
    /// Why the file was ignored at the last `load` (for `doctor`); nil when it was used or absent.
    public private(set) var problem: String?
    /// Makes a write step fail, as a crash there would (tests).
    var failing: (AtomicFile.Step) -> Bool = { _ in false }

    public static let fileName = "settings.toml"

    public init(stateDirectory: String, logger: Logger) {
        directory = stateDirectory
        file = stateDirectory + "/" + Self.fileName
        self.logger = logger
    }

    /// The dotted option names the file holds, in its order.
    public var heldKeys: [String] { KioskSettings.dottedKeys(of: held) }

    /// `key = value` for each option the file holds, as written in it.
    public var heldValues: [String] {
        held.entries.flatMap { entry -> [String] in
            if case .table(let inner) = entry.value.kind {
                return inner.entries.map { "\(entry.key).\($0.key) = \(TOMLWriter.inline($0.value))" }
            }
            return ["\(entry.key) = \(TOMLWriter.inline(entry.value))"]
        }
    }

    /// Reads the file and lays it over `base` (config.toml and the command line). A missing file
    /// holds nothing; an unreadable or invalid one is logged, named, and ignored as a whole, so
    /// the frame starts with config.toml's values rather than not at all.
    public func load(over base: KioskConfig) -> KioskConfig {
        held = TOMLTable(line: 1, explicitlyDefined: true)
        problem = nil
        let bytes: [UInt8]
        do {
            bytes = try FileSystemCalls.contents(of: FilePath(file), limit: 1 << 20)
        } catch {
            if error.errno != .noSuchFileOrDirectory {
                problem = "cannot read it (\(error.errno))"
                logger.warning("settings: cannot read \(file) (\(error.errno)); using config.toml's values")
            }
            return base
        }
        let table: TOMLTable
        do throws(TOMLSyntaxError) {
            table = try TOMLParser.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            problem = "line \(error.line): \(error.message)"
            logger.error("settings: \(file):\(error.line): \(error.message): the file is ignored and config.toml's values are used; saving a setting on the remote page writes it anew")
            return base
        }
        do throws(ConfigError) {
            let config = try base.applying(settings: table, source: file)
            held = table
            if !heldKeys.isEmpty { logger.info("settings: \(heldKeys.joined(separator: ", ")) from \(file) (over config.toml)") }
            return config
        } catch {
            problem = error.allMistakes.map { ($0.key.map { $0 + ": " } ?? "") + $0.message }.joined(separator: "; ")
            for mistake in error.allMistakes { logger.error("settings: \(mistake)") }
            logger.error("settings: \(file) is ignored and config.toml's values are used; saving a setting on the remote page writes it anew")
            return base
        }
    }

    /// Lays `changes` over what the file holds, checks the result over `base` by the config's
    /// rules, and writes the file. Returns the configuration to apply; on any error nothing changed.
    public func change(_ changes: TOMLTable, base: KioskConfig) throws(ChangeError) -> KioskConfig {
        let next = KioskSettings.merged(held, changes)
        let config: KioskConfig
        do throws(ConfigError) {
            config = try base.applying(settings: next, source: "settings")
        } catch {
            throw .invalid(error)
        }
        guard AtomicFile.makeDirectories(directory) else {
            throw .notSaved("cannot create the folder \(directory)")
        }
        let text = TOMLWriter.text(of: next, comment: """
            Settings changed on the remote page (photokiosk writes this file; `photokiosk doctor` lists it).
            Each option here wins over the same option in config.toml and on the command line.
            Delete the file, or use "Back to config.toml" on the page, to go back to config.toml.
            """)
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(Array(text.utf8), to: file, failing: failing)
        } catch {
            throw .notSaved("\(error)")
        }
        held = next
        return config
    }

    /// Forgets every setting: the file is removed, config.toml's values apply again.
    public func reset() {
        held = TOMLTable(line: 1, explicitlyDefined: true)
        if AtomicFile.remove(file) { logger.info("settings: \(file) removed; config.toml's values apply") }
    }
}

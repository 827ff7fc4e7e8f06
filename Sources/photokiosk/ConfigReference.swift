import ArgumentParser
import PhotoKioskApp

/// Prints docs/configuration.md from the option table the parser is checked against, so the
/// reference is regenerated, never edited: `photokiosk config-reference > docs/configuration.md`.
struct ConfigReference: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config-reference",
        abstract: "Print the configuration reference (docs/configuration.md) as Markdown.")

    func run() {
        print(KioskConfig.referencePage(), terminator: "")
    }
}

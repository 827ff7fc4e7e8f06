import ArgumentParser
import Platform

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List DRM devices, connectors, modes, input devices and permissions, and say what would be used.")

    func run() throws {
        print(platformReport())
    }
}

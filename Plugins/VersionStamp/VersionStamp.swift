import Foundation
import PackagePlugin

/// Gives the photokiosk target `BuildVersion.text` (what `--version` prints), written before every
/// build by scripts/version.sh from debian/changelog and git, so the number lives in one place.
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let generated = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let script = context.package.directoryURL.appending(path: "scripts/version.sh")
        // A prebuild command runs on every build: a new commit changes the version without
        // changing any input file SwiftPM could watch.
        return [.prebuildCommand(
            displayName: "Version from debian/changelog",
            executable: URL(filePath: "/bin/sh"),
            arguments: [script.path(percentEncoded: false), "--swift",
                        generated.appending(path: "BuildVersion.swift").path(percentEncoded: false)],
            outputFilesDirectory: generated)]
    }
}

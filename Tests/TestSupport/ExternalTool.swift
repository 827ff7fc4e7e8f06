import Foundation

/// The real encoders and reference decoders the format tests run to make and check their
/// fixtures (heif-enc, heif-convert from libheif-examples; cwebp, dwebp, webpmux from webp).
/// scripts/install-deps.sh installs them; a missing one fails the test that needs it.
public enum ExternalTool {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `tool` (searched in /usr/bin and /usr/local/bin) and waits; throws with its error
    /// output when it is missing or fails.
    public static func run(_ tool: String, _ arguments: [String]) throws {
        _ = try output(tool, arguments)
    }

    /// Runs `tool` like `run` and returns what it printed on stdout (zbarimg's decoded text).
    public static func output(_ tool: String, _ arguments: [String]) throws -> String {
        guard let path = ["/usr/bin/", "/usr/local/bin/"].map({ $0 + tool }).first(where: { access($0, X_OK) == 0 }) else {
            throw Failure(description: "\(tool) is not installed (scripts/install-deps.sh installs libheif-examples, webp and zbar-tools)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let errors = Pipe(), printed = Pipe()
        process.standardError = errors
        process.standardOutput = printed
        try process.run()
        // Stdout first: small outputs (decoded text) never fill the pipe, large ones are wanted.
        let result = String(decoding: printed.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(output)")
        }
        return result
    }
}

import Foundation

/// The debug build of photokiosk beside the test bundle (`swift build --build-tests` makes it).
public func builtPhotokiosk() -> String? {
    let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("photokiosk").path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
}

/// What a program printed and how it ended.
public struct ProgramRun {
    public var status: Int32
    public var output: String
    public var errors: String
}

/// Runs `program` to its end; killed after `limit` seconds (a hang then shows as signal 9,
/// not as a test run that never ends).
public func runProgram(_ program: String, _ arguments: [String], limit: Double = 300) throws -> ProgramRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    // stderr goes to a file, so one pipe read to its end cannot block on the other.
    let errorFile = makeTemporaryDirectory("stderr") + "/stderr"
    defer { removeTree((errorFile as NSString).deletingLastPathComponent) }
    _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
    let output = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    try errors.close()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    return ProgramRun(status: process.terminationStatus,
                      output: String(decoding: outputData, as: UTF8.self),
                      errors: (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "")
}

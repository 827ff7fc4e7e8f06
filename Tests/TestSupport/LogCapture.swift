import Basics
import Graphics
import Logging

/// Collects every log line (level and message) so a test can check what was logged, and how often.
public final class LogCapture: Sendable {
    public struct Line: Sendable {
        public var level: Logger.Level
        public var message: String
    }
    private let storage = Locked<[Line]>([])

    public init() {}

    public var lines: [Line] { storage.withLock { $0 } }
    /// The messages alone, in order.
    public var messages: [String] { lines.map(\.message) }
    /// Lines at warning level or above: what a broken file or a skipped entry produces.
    public var warnings: [String] { lines.filter { $0.level >= .warning }.map(\.message) }

    public var logger: Logger {
        Logger(label: "test") { _ in CapturingHandler(capture: self) }
    }

    fileprivate func append(_ line: Line) { storage.withLock { $0.append(line) } }
}

private struct CapturingHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        capture.append(.init(level: event.level, message: "\(event.message)"))
    }
}

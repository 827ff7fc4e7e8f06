import Basics
import Graphics
/// A recorded touch session: what a panel reported, with timestamps, in a text format that is
/// easy to read and diff (one event per line). Positions are stored normalised to 0...1 of the
/// screen, so a recording made on one screen size replays on another.
///
/// ```
/// # photokiosk touch recording v1
/// device name="ILITEK Multi-Touch" size-mm=154x86 screen=1280x800 rotation=0 calibration=1,0,0,0,1,0
/// 0.000000 down 0 0.250000 0.500000
/// 0.000000 frame
/// 0.016667 move 0 0.260000 0.500000
/// 0.016667 frame
/// 0.033333 up 0
/// 0.033333 frame
/// 0.100000 key escape down
/// 0.500000 mark after-swipe
/// ```
/// Times are seconds from the first event. `cancel SLOT` ends a touch without a lift; `mark NAME`
/// asks a replay to act at that moment (write a PNG).
public struct TouchRecording: Hashable, Sendable {
    public struct Device: Hashable, Sendable {
        public var name: String
        public var sizeMillimetres: (width: Double, height: Double)?
        public var screen: (width: Int, height: Int)
        public var rotation: Int
        public var calibration: [Double]

        public init(name: String, sizeMillimetres: (width: Double, height: Double)? = nil,
                    screen: (width: Int, height: Int), rotation: Int = 0,
                    calibration: [Double] = [1, 0, 0, 0, 1, 0]) {
            self.name = name
            self.sizeMillimetres = sizeMillimetres
            self.screen = screen
            self.rotation = rotation
            self.calibration = calibration
        }

        public static func == (a: Device, b: Device) -> Bool {
            a.name == b.name && a.sizeMillimetres?.width == b.sizeMillimetres?.width
                && a.sizeMillimetres?.height == b.sizeMillimetres?.height
                && a.screen == b.screen && a.rotation == b.rotation && a.calibration == b.calibration
        }

        public func hash(into h: inout Hasher) {
            h.combine(name); h.combine(screen.width); h.combine(screen.height); h.combine(rotation)
        }
    }

    public enum Event: Hashable, Sendable {
        case down(slot: Int, x: Double, y: Double)
        case move(slot: Int, x: Double, y: Double)
        case up(slot: Int)
        case cancel(slot: Int)
        case frame
        case key(name: String, pressed: Bool)
        case mark(String)
    }

    public struct Entry: Hashable, Sendable {
        public var time: Double
        public var event: Event
    }

    public var device: Device?
    public var entries: [Entry]

    public init(device: Device? = nil, entries: [Entry] = []) {
        self.device = device
        self.entries = entries
    }

    public static let header = "# photokiosk touch recording v1"

    public var duration: Double { entries.last?.time ?? 0 }
}

/// Why a recording could not be read: the line number and what was wrong.
public struct TouchRecordingError: Error, CustomStringConvertible {
    public let line: Int
    public let message: String
    public var description: String { "line \(line): \(message)" }
}

extension TouchRecording {
    public func serialized() -> String {
        var out = Self.header + "\n"
        if let d = device {
            var line = "device name=\"\(d.name.replacingQuotes())\""
            if let mm = d.sizeMillimetres { line += " size-mm=\(decimalText(mm.width, places: 1))x\(decimalText(mm.height, places: 1))" }
            line += " screen=\(d.screen.width)x\(d.screen.height) rotation=\(d.rotation)"
            line += " calibration=" + d.calibration.map { decimalText($0, places: 6) }.joined(separator: ",")
            out += line + "\n"
        }
        for e in entries {
            out += decimalText(e.time, places: 6) + " "
            switch e.event {
            case let .down(slot, x, y): out += "down \(slot) \(decimalText(x, places: 6)) \(decimalText(y, places: 6))"
            case let .move(slot, x, y): out += "move \(slot) \(decimalText(x, places: 6)) \(decimalText(y, places: 6))"
            case let .up(slot): out += "up \(slot)"
            case let .cancel(slot): out += "cancel \(slot)"
            case .frame: out += "frame"
            case let .key(name, pressed): out += "key \(name) \(pressed ? "down" : "up")"
            case let .mark(name): out += "mark \(name)"
            }
            out += "\n"
        }
        return out
    }

    public init(parsing text: String) throws {
        self.init()
        var lineNumber = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("device ") {
                device = try Self.parseDevice(String(line.dropFirst(7)), line: lineNumber)
                continue
            }
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 2, let time = Double(fields[0]), time.isFinite, time >= 0 else {
                throw TouchRecordingError(line: lineNumber, message: "expected 'SECONDS EVENT ...', got '\(line)'")
            }
            if let last = entries.last, time < last.time {
                throw TouchRecordingError(line: lineNumber, message: "time \(time) goes backwards (previous \(last.time))")
            }
            entries.append(Entry(time: time, event: try Self.parseEvent(Array(fields.dropFirst()), line: lineNumber)))
        }
    }

    private static func parseEvent(_ f: [String], line: Int) throws -> Event {
        func slot(_ s: String) throws -> Int {
            guard let v = Int(s), v >= 0, v < 64 else { throw TouchRecordingError(line: line, message: "bad slot '\(s)'") }
            return v
        }
        func coordinate(_ s: String) throws -> Double {
            guard let v = Double(s), v.isFinite else { throw TouchRecordingError(line: line, message: "bad coordinate '\(s)'") }
            return v
        }
        func need(_ n: Int) throws {
            guard f.count == n else { throw TouchRecordingError(line: line, message: "'\(f[0])' takes \(n - 1) values, got \(f.count - 1)") }
        }
        switch f[0] {
        case "down": try need(4); return .down(slot: try slot(f[1]), x: try coordinate(f[2]), y: try coordinate(f[3]))
        case "move": try need(4); return .move(slot: try slot(f[1]), x: try coordinate(f[2]), y: try coordinate(f[3]))
        case "up": try need(2); return .up(slot: try slot(f[1]))
        case "cancel": try need(2); return .cancel(slot: try slot(f[1]))
        case "frame": try need(1); return .frame
        case "key":
            try need(3)
            guard f[2] == "down" || f[2] == "up" else { throw TouchRecordingError(line: line, message: "key state must be down or up") }
            return .key(name: f[1], pressed: f[2] == "down")
        case "mark": try need(2); return .mark(f[1])
        default: throw TouchRecordingError(line: line, message: "unknown event '\(f[0])'")
        }
    }

    private static func parseDevice(_ text: String, line: Int) throws -> Device {
        var fields: [String: String] = [:]
        var rest = Substring(text)
        while let eq = rest.firstIndex(of: "=") {
            let key = rest[..<eq].trimmingSpaces()
            var after = rest[rest.index(after: eq)...]
            let value: Substring
            if after.first == "\"" {
                after = after.dropFirst()
                guard let close = after.firstIndex(of: "\"") else { throw TouchRecordingError(line: line, message: "unterminated quote") }
                value = after[..<close]
                rest = after[after.index(after: close)...]
            } else {
                let end = after.firstIndex(of: " ") ?? after.endIndex
                value = after[..<end]
                rest = after[end...]
            }
            fields[String(key)] = String(value)
        }
        func pair(_ s: String?) -> (Double, Double)? {
            guard let p = s?.split(separator: "x"), p.count == 2, let a = Double(p[0]), let b = Double(p[1]) else { return nil }
            return (a, b)
        }
        guard let screen = pair(fields["screen"]), screen.0 >= 1, screen.1 >= 1 else {
            throw TouchRecordingError(line: line, message: "device needs screen=WxH")
        }
        let calibration = (fields["calibration"] ?? "1,0,0,0,1,0").split(separator: ",").compactMap { Double($0) }
        guard calibration.count == 6 else { throw TouchRecordingError(line: line, message: "calibration needs 6 numbers") }
        guard let rotation = Int(fields["rotation"] ?? "0"), [0, 90, 180, 270].contains(rotation) else {
            throw TouchRecordingError(line: line, message: "rotation must be 0, 90, 180 or 270")
        }
        let mm = pair(fields["size-mm"]).map { (width: $0.0, height: $0.1) }
        return Device(name: fields["name"] ?? "", sizeMillimetres: mm, screen: (Int(screen.0), Int(screen.1)),
                      rotation: rotation, calibration: calibration)
    }
}


extension StringProtocol {
    func trimmingSpaces() -> Substring {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" || s.first == "\r" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" || s.last == "\r" { s = s.dropLast() }
        return s
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        String(map { $0 == "\"" ? "'" : $0 })
    }
}

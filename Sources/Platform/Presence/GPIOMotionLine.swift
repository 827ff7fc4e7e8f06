import CGPIO
import Glibc
import SystemAccess
import SystemPackage

/// A motion sensor on one GPIO line, through the kernel's GPIO character device (v2 uAPI, see
/// CGPIO.h for why not libgpiod): the line is requested as an input with edge events, and its
/// descriptor is watched by the event loop, so an edge wakes the loop (nothing polls).
public final class GPIOMotionLine: MotionSensor {
    public let chipPath: String
    public let offset: UInt32
    public let sensorName: String
    private let line: FileDescriptor

    /// The name the line is requested under (`gpioinfo` shows it as the consumer).
    static let consumer = "photokiosk-motion"

    /// Requests line `offset` of the chip at `chipPath`; `activeLow`: the sensor pulls the line low on
    /// motion. Throws with a message fit for one log line: no such chip, no such line, a line in use.
    public init(chipPath: String, offset: Int, activeLow: Bool) throws(PlatformError) {
        self.chipPath = chipPath
        self.offset = UInt32(clamping: offset)
        let chip = try openDevice(chipPath, flags: O_RDONLY)
        defer { close(chip) }
        var name = [CChar](repeating: 0, count: 32), label = [CChar](repeating: 0, count: 32)
        var lines: UInt32 = 0
        let info = cgpio_chip_info(chip, &name, &label, &lines)
        guard info == 0 else { throw .failed("GPIO_GET_CHIPINFO_IOCTL", path: chipPath, errno: -info) }
        let chipName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        sensorName = "\(chipName) line \(offset)"
        guard offset >= 0, UInt32(offset) < lines else {
            throw .unsupported("\(chipPath) (\(chipName)) has \(lines) lines; there is no line \(offset)")
        }
        let fd = cgpio_request_input(chip, self.offset, activeLow ? 1 : 0, Self.consumer)
        guard fd >= 0 else {
            if -fd == EBUSY { throw .unsupported("\(sensorName) is in use by \(Self.holder(chip: chip, offset: self.offset))") }
            throw .failed("GPIO_V2_GET_LINE_IOCTL", path: chipPath, errno: -fd)
        }
        line = FileDescriptor(rawValue: fd)
    }

    deinit { line.closeQuietly() }

    /// Who holds a busy line, as the kernel names the consumer.
    private static func holder(chip: Int32, offset: UInt32) -> String {
        var used: Int32 = 0
        var consumer = [CChar](repeating: 0, count: 32)
        guard cgpio_line_info(chip, offset, &used, &consumer) == 0 else { return "another program" }
        let name = String(decoding: consumer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "another program" : "\"\(name)\""
    }

    public var isActive: Bool { cgpio_line_value(line.rawValue) == 1 }

    public func attach(to loop: any EventLoopRegistry, onChange: @escaping (Bool) -> Void) throws(PlatformError) {
        try loop.watch(line) { [weak self] in
            guard let self else { return }
            // Every queued edge is read; only the level after the last one matters to the app.
            var last: Bool?
            var timestamp: UInt64 = 0
            while true {
                let edge = cgpio_read_edge(line.rawValue, &timestamp)
                guard edge >= 0 else { break }
                last = edge == 1
            }
            if let last { onChange(last) }
        }
    }

    public func detach(from loop: any EventLoopRegistry) { loop.unwatch(line) }
}

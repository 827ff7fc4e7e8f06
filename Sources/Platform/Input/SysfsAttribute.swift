import Glibc

/// A sysfs attribute file (`/sys/class/input/event3/device/name`): one short line of text.
/// Named apart from the standard library's `readLine()`, which reads standard input.
enum SysfsAttribute {
    /// The first line of the attribute at `path`, without the newline; nil if it cannot be read.
    static func firstLine(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        var line = String(decoding: bytes, as: UTF8.self)
        while line.hasSuffix("\n") { line.removeLast() }
        return line
    }
}

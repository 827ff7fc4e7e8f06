#if canImport(Glibc)
import Glibc
#endif

/// The machine's memory as the kernel reports it, for sizing caches and decode budgets to the
/// board (a 512 MB Pi Zero 2 W gets smaller ones than a desktop).
public enum SystemMemory {
    /// MemTotal from /proc/meminfo in bytes; nil when it cannot be read.
    public static func totalBytes(meminfo path: String = "/proc/meminfo") -> Int? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let bytes = memTotal(inLine: text) { return bytes }
        }
        return nil
    }

    /// "MemTotal:       24684092 kB" → bytes; nil for any other line.
    static func memTotal(inLine line: String) -> Int? {
        guard line.hasPrefix("MemTotal:") else { return nil }
        let fields = line.dropFirst("MemTotal:".count).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard let value = fields.first.flatMap({ Int($0) }), value > 0, fields.count == 2, fields[1] == "kB" else { return nil }
        return value * 1024
    }
}

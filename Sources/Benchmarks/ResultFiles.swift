import Imaging
import SystemAccess
import SystemPackage

// The files the benchmark reads and writes besides photos: a child's "key=value" results, /proc
// files, its work folders. Through the edge's whole-file helpers.

/// Reads a small text file (a child's results, a /proc file); nil when it cannot be read.
func readText(_ path: String) -> String? {
    guard let bytes = try? FileSystemCalls.contents(of: FilePath(path), limit: 64 << 20) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

/// Writes "key=value" lines (a child's results for its parent) through a temporary file renamed
/// into place, so the parent never reads half of them.
func writeKeyValues(_ results: [(String, Double)], to path: String) {
    let text = results.map { "\($0.0)=\($0.1)\n" }.joined()
    do {
        try FileReader.write(Array(text.utf8), to: path)
    } catch {
        sayError("photokiosk-bench: \(error)")
    }
}

/// Parses "key=value" lines.
func keyValues(_ text: String) -> [String: Double] {
    var out: [String: Double] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1)
        if parts.count == 2, let v = Double(parts[1]) { out[String(parts[0])] = v }
    }
    return out
}

/// Creates `path` and its missing parents (like mkdir -p).
func makeDirectories(_ path: String) throws(SystemError) {
    try FileSystemCalls.makeDirectories(FilePath(path), permissions: [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute])
}

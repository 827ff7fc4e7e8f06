import SystemAccess

/// Syncthing's API key from `[syncthing] api_key_file`: the file's first line, spaces around it
/// dropped. Shared by the run and `doctor`; the problem it reports names the file, never the key.
public enum SyncthingAPIKey {
    public static func read(from path: String) -> Result<String, Problem> {
        guard let bytes = AtomicFile.read(path, limit: 4096) else {
            return .failure(Problem(description: "cannot read the API key file \(path) (missing, unreadable, or larger than 4 KB)"))
        }
        let firstLine = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let key = String(decoding: firstLine, as: UTF8.self).trimmingSpaces
        guard !key.isEmpty else { return .failure(Problem(description: "the API key file \(path) is empty")) }
        return .success(key)
    }

    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}

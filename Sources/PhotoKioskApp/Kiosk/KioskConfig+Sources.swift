extension KioskConfig {
    /// A folder kept in step with a remote one by rclone (issue 34): a cloud, a NAS, a server.
    /// The sync runs outside the kiosk (photokiosk-sync.service, deploy/photokiosk-sync); the
    /// kiosk shows the folder it fills, `sources/NAME` in the state folder (`KioskPaths`;
    /// `/var/lib/photokiosk/sources/NAME` for the service), with the library.
    /// Credentials stay in rclone's own config file (/etc/photokiosk/rclone.conf, 0600): the
    /// remote here is only a name and a path, so nothing secret is in this file, the logs or
    /// the status.
    public struct Source: Equatable, Sendable {
        /// The folder's name: letters, digits, `-` and `_` (it is a path component and a topic word).
        public var name: String
        /// rclone's `REMOTE:PATH`, e.g. `nextcloud:Photos/Frame`.
        public var remote: String
        /// Minutes between syncs.
        public var intervalMinutes: Int = 60
        /// Disk space the source may take, in MB; 0: no limit. Over it, the newest photos (by date
        /// taken) that fit are kept.
        public var quotaMB: Int = 0

        public init(name: String, remote: String, intervalMinutes: Int = 60, quotaMB: Int = 0) {
            self.name = name
            self.remote = remote
            self.intervalMinutes = intervalMinutes
            self.quotaMB = quotaMB
        }

        public static let intervalRange = 5...10_080
        public static let quotaRange = 0...10_000_000
        /// More would be a mistake, not a frame; and the phone page sends the whole list.
        public static let maxCount = 64
        static let maxRemoteLength = 1024

        static func nameProblem(_ name: String) -> String? {
            KioskConfig.MQTT.isTopicWord(name) ? nil
                : "\"\(name)\" must be letters, digits, \"-\" or \"_\" (it names the source's folder)"
        }

        /// `REMOTE:PATH` as rclone takes it: a remote name from rclone.conf, a colon, a path.
        /// A local path (no colon) or a connection string with options (`:webdav,url=…:`) would
        /// put addresses and secrets in this file, so both are refused.
        /// The remote's name follows rclone's own rule (letters, digits, `_ - . + @` and spaces,
        /// not starting with `-` or a space, not ending with a space): a leading `-` would reach
        /// rclone's command line as an option. No control character anywhere: a tab would split
        /// the line `photokiosk sources` hands the sync script.
        static func remoteProblem(_ remote: String) -> String? {
            if remote.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                return remote.contains(where: \.isNewline) ? "\"\(remote)\" holds a line break" : "the remote holds a control character"
            }
            guard let colon = remote.firstIndex(of: ":"), colon != remote.startIndex,
                  remote[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "_-.+@ ".contains($0) }),
                  remote.first != "-", remote.first != " ", remote[remote.index(before: colon)] != " "
            else {
                return "\"\(remote)\" is not REMOTE:PATH with a remote named in rclone.conf, e.g. \"nextcloud:Photos\""
            }
            if remote.count > maxRemoteLength { return "the remote is longer than \(maxRemoteLength) characters" }
            return nil
        }
    }

    /// Every folder the library shows: the configured ones, then each source's.
    public func libraryFolders(_ paths: KioskPaths) -> [String] {
        library.folders + sources.map(paths.folder(of:)).filter { !library.folders.contains($0) }
    }
}

extension ConfigDecoder {
    /// The `[[source]]` tables, each checked on its own so every mistake is reported.
    func sources(_ v: TOMLValue, _ key: String) throws(ConfigError) -> [KioskConfig.Source] {
        let expected = "a list of [[source]] tables"
        guard case .array(let items) = v.kind else { throw wrongType(v, key, expected) }
        var result: [KioskConfig.Source] = []
        guard items.count <= KioskConfig.Source.maxCount else {
            throw ConfigError(kind: .invalidValue, file: file, line: v.line, key: key,
                              message: "\(items.count) sources: at most \(KioskConfig.Source.maxCount)")
        }
        for item in items {
            guard case .table(let t) = item.kind else { throw wrongType(item, key, expected) }
            var name: String?, remote: String?
            var interval = 60, quota = 0
            for e in t.entries {
                let key = "source." + e.key
                do throws(ConfigError) {
                    switch e.key {
                    case "name":
                        let text = try string(e.value, key)
                        if let problem = KioskConfig.Source.nameProblem(text) { throw invalid(e.value, key, problem) }
                        name = text
                    case "remote":
                        let text = try string(e.value, key)
                        if let problem = KioskConfig.Source.remoteProblem(text) { throw invalid(e.value, key, problem) }
                        remote = text
                    case "interval":
                        interval = try integer(e.value, key)
                        if let problem = ConfigOption.outOfRange(interval, KioskConfig.Source.intervalRange, "minutes", nil) {
                            throw invalid(e.value, key, problem)
                        }
                    case "quota_mb":
                        quota = try integer(e.value, key)
                        if let problem = ConfigOption.outOfRange(quota, KioskConfig.Source.quotaRange, "MB", "0 means no limit") {
                            throw invalid(e.value, key, problem)
                        }
                    default: throw unknown(e, in: "source")
                    }
                } catch { problems.append(error) }
            }
            for needed in ["name", "remote"] where !t.entries.contains(where: { $0.key == needed }) {
                problems.append(ConfigError(kind: .missingKey, file: file, line: t.line, key: "source.\(needed)",
                                            message: "each [[source]] needs name = \"…\" and remote = \"REMOTE:PATH\""))
            }
            guard let name, let remote else { continue }
            guard !result.contains(where: { $0.name == name }) else {
                throw ConfigError(kind: .invalidValue, file: file, line: t.line, key: "source.name",
                                  message: "two sources are named \"\(name)\": each needs its own folder")
            }
            result.append(KioskConfig.Source(name: name, remote: remote, intervalMinutes: interval, quotaMB: quota))
        }
        return result
    }
}

@testable import PhotoKioskApp
import Testing

/// Issue 34 item 3: the phone folder's state read from Syncthing's REST answers (network input,
/// so refused rather than trusted when it is not what Syncthing sends), and its wording.
@Suite struct SyncthingStatusTests {
    /// `GET /rest/db/status?folder=camera` from Syncthing 1.19.2 (Debian 12), captured on loopback.
    static let idleFolder = """
        {"errors": 0, "globalBytes": 0, "globalDeleted": 0, "globalDirectories": 0, "globalFiles": 0, "globalSymlinks": 0, "globalTotalItems": 0, "ignorePatterns": false, "inSyncBytes": 0, "inSyncFiles": 0, "invalid": "", "localBytes": 0, "localDeleted": 0, "localDirectories": 0, "localFiles": 0, "localSymlinks": 0, "localTotalItems": 0, "needBytes": 0, "needDeletes": 0, "needDirectories": 0, "needFiles": 0, "needSymlinks": 0, "needTotalItems": 0, "pullErrors": 0, "receiveOnlyChangedBytes": 0, "receiveOnlyChangedDeletes": 0, "receiveOnlyChangedDirectories": 0, "receiveOnlyChangedFiles": 0, "receiveOnlyChangedSymlinks": 0, "receiveOnlyTotalItems": 0, "sequence": 0, "state": "idle", "stateChanged": "2026-11-28T10:58:10Z", "version": 0}
        """
    /// `GET /rest/system/connections` from the same Syncthing: only its own device, never connected.
    static let noPhone = """
        {"connections": {"5L4GIG5-BQW3O3D-YATV5AU-XUIUJHZ-SHVYGXP-RU3SAX7-54QPWSF-OMLM4QJ": {"at": "0001-01-01T00:00:00Z", "inBytesTotal": 0, "outBytesTotal": 0, "startedAt": "0001-01-01T00:00:00Z", "connected": false, "paused": false, "address": "", "clientVersion": "", "type": "", "crypto": ""}}, "total": {"at": "2026-11-28T10:58:13Z", "inBytesTotal": 0, "outBytesTotal": 0}}
        """

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// The captured answer with a syncing state and counts put in (the shape stays Syncthing's).
    static var syncingFolder: String {
        idleFolder.replacingOccurrences("\"state\": \"idle\"", "\"state\": \"syncing\"")
            .replacingOccurrences("\"needFiles\": 0", "\"needFiles\": 12")
            .replacingOccurrences("\"needBytes\": 0", "\"needBytes\": 48300000")
    }

    static var phoneConnected: String {
        noPhone.replacingOccurrences("\"connected\": false", "\"connected\": true")
    }

    @Test func readsTheCapturedAnswers() throws {
        let folder = try SyncthingFolderStatus(parsing: Self.bytes(Self.idleFolder))
        #expect(folder == SyncthingFolderStatus(state: "idle", needFiles: 0, needBytes: 0))
        let syncing = try SyncthingFolderStatus(parsing: Self.bytes(Self.syncingFolder))
        #expect(syncing == SyncthingFolderStatus(state: "syncing", needFiles: 12, needBytes: 48_300_000))
        #expect(try SyncthingConnections(parsing: Self.bytes(Self.noPhone)).connectedDevices == 0)
        #expect(try SyncthingConnections(parsing: Self.bytes(Self.phoneConnected)).connectedDevices == 1)
    }

    @Test func refusesATruncatedAnswer() {
        for cut in [0, 1, 100, Self.idleFolder.utf8.count / 2, Self.idleFolder.utf8.count - 1] {
            #expect(throws: SyncthingFolderStatus.Refusal.self) {
                try SyncthingFolderStatus(parsing: Array(Self.bytes(Self.idleFolder).prefix(cut)))
            }
            #expect(throws: SyncthingFolderStatus.Refusal.self) {
                try SyncthingConnections(parsing: Array(Self.bytes(Self.noPhone).prefix(min(cut, Self.noPhone.utf8.count - 1))))
            }
        }
    }

    @Test func refusesWrongTypes() {
        let wrong = [
            "[]", "\"idle\"", "{}", "null",
            #"{"state": 1, "needFiles": 0, "needBytes": 0}"#,
            #"{"state": "idle", "needFiles": "0", "needBytes": 0}"#,
            #"{"state": "idle", "needFiles": 0, "needBytes": -1}"#,
            #"{"state": "idle", "needFiles": 1.5, "needBytes": 0}"#,
            #"{"state": "idle", "needFiles": 0}"#,
            #"{"state": "<script>", "needFiles": 0, "needBytes": 0}"#,
            #"{"state": "idle", "state": "error", "needFiles": 0, "needBytes": 0}"#,
        ]
        for text in wrong {
            #expect(throws: SyncthingFolderStatus.Refusal.self, "\(text)") { try SyncthingFolderStatus(parsing: Self.bytes(text)) }
        }
        for text in [#"{"connections": []}"#, #"{"connections": {"A": {"connected": "yes"}}}"#, #"{"connections": {"A": 1}}"#, #"{"total": {}}"#] {
            #expect(throws: SyncthingFolderStatus.Refusal.self, "\(text)") { try SyncthingConnections(parsing: Self.bytes(text)) }
        }
    }

    @Test func refusesHugeAndDeepAnswers() {
        let huge = #"{"state": "idle", "needFiles": 0, "needBytes": 0, "x": ""# + String(repeating: "a", count: 70_000) + "\"}"
        #expect(throws: SyncthingFolderStatus.Refusal.self) { try SyncthingFolderStatus(parsing: Self.bytes(huge)) }
        let deep = #"{"state": "idle", "needFiles": 0, "needBytes": 0, "x": "# + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "}"
        #expect(throws: SyncthingFolderStatus.Refusal.self) { try SyncthingFolderStatus(parsing: Self.bytes(deep)) }
        let manyDevices = #"{"connections": {"# + (0..<20_000).map { "\"D\($0)\": {\"connected\": true}" }.joined(separator: ",") + "}}"
        #expect(throws: SyncthingFolderStatus.Refusal.self) { try SyncthingConnections(parsing: Self.bytes(manyDevices)) }
        let bigCount = #"{"state": "idle", "needFiles": 99999999999999999999999, "needBytes": 0}"#
        #expect(throws: SyncthingFolderStatus.Refusal.self) { try SyncthingFolderStatus(parsing: Self.bytes(bigCount)) }
    }

    @Test func aLongErrorIsCut() throws {
        let text = #"{"state": "error", "needFiles": 0, "needBytes": 0, "error": ""# + String(repeating: "e", count: 5000) + "\"}"
        let folder = try SyncthingFolderStatus(parsing: Self.bytes(text))
        #expect(folder.error.count == 200)
    }

    @Test func statesFromAnswers() throws {
        let idle = try SyncthingFolderStatus(parsing: Self.bytes(Self.idleFolder))
        let syncing = try SyncthingFolderStatus(parsing: Self.bytes(Self.syncingFolder))
        let phone = SyncthingConnections(connectedDevices: 1)
        let none = SyncthingConnections(connectedDevices: 0)
        #expect(SyncthingState(folder: idle, connections: phone, disconnectedFor: nil) == .inSync)
        #expect(SyncthingState(folder: syncing, connections: phone, disconnectedFor: nil) == .syncing(files: 12, bytes: 48_300_000))
        #expect(SyncthingState(folder: idle, connections: none, disconnectedFor: .seconds(600)) == .phoneNotConnected(since: .seconds(600)))
        // Files still to come with no phone: they cannot come, so the phone's absence is the news.
        #expect(SyncthingState(folder: syncing, connections: none, disconnectedFor: nil) == .phoneNotConnected(since: nil))
        let scanning = SyncthingFolderStatus(state: "scanning", needFiles: 0, needBytes: 0)
        #expect(SyncthingState(folder: scanning, connections: phone, disconnectedFor: nil) == .scanning)
        let broken = SyncthingFolderStatus(state: "error", needFiles: 0, needBytes: 0, error: "folder path missing")
        #expect(SyncthingState(folder: broken, connections: phone, disconnectedFor: nil) == .folderError("folder path missing"))
    }

    @Test func wording() {
        #expect(SyncthingState.inSync.description == "in sync")
        #expect(SyncthingState.syncing(files: 12, bytes: 48_300_000).description == "syncing 12 files (48 MB)")
        #expect(SyncthingState.syncing(files: 1, bytes: 2_450_000).description == "syncing 1 file (2.5 MB)")
        #expect(SyncthingState.syncing(files: 3, bytes: 40_000).description == "syncing 3 files (0.0 MB)")
        #expect(SyncthingState.phoneNotConnected(since: .seconds(45)).description == "phone not connected since 45 s ago")
        #expect(SyncthingState.phoneNotConnected(since: .seconds(720)).description == "phone not connected since 12 min ago")
        #expect(SyncthingState.phoneNotConnected(since: .seconds(3 * 3600 + 5)).description == "phone not connected since 3 h ago")
        #expect(SyncthingState.phoneNotConnected(since: .seconds(5 * 86400)).description == "phone not connected since 5 days ago")
        #expect(SyncthingState.phoneNotConnected(since: nil).description == "phone not connected since the frame started")
        #expect(SyncthingState.notReachable("connection refused").description == "Syncthing not reachable: connection refused")
        #expect(SyncthingState.folderError("x").description == "Syncthing folder error: x")
        #expect(Set([SyncthingState.starting, .inSync, .syncing(files: 1, bytes: 1), .scanning, .phoneNotConnected(since: nil),
                     .folderError(""), .notReachable("")].map(\.code)).count == 7)
    }

    @Test func configuration() throws {
        let off = try KioskConfig.parse("", file: "t")
        #expect(!off.syncthing.enabled && off.syncthing.address == SyncthingAPIAddress(parsing: "http://127.0.0.1:8384"))
        let on = try KioskConfig.parse("[syncthing]\nenabled = true\napi_key_file = \"/k\"\nfolder_id = \"camera\"\napi_address = \"http://localhost:8385/\"\n", file: "t")
        #expect(on.syncthing.folderID == "camera" && on.syncthing.apiKeyFile == "/k")
        #expect(on.syncthing.address == SyncthingAPIAddress(parsing: "http://127.0.0.1:8385"))
        #expect(on.syncthing.address?.port == 8385)
        #expect(SyncthingAPIAddress(parsing: "http://[::1]:8384")?.host == "::1")
        // Not loopback, not http, no port: refused (the key would cross a network).
        for text in ["http://192.168.1.2:8384", "https://127.0.0.1:8384", "http://127.0.0.1", "http://127.0.0.1:0", "http://evil.example:8384", "http://127.0.0.1.evil:1"] {
            #expect(SyncthingAPIAddress(parsing: text) == nil, "\(text)")
            #expect(configRefusal("[syncthing]\napi_address = \"\(text)\"\n", file: "t") != nil, "\(text)")
        }
        #expect(configRefusal("[syncthing]\nenabled = true\nfolder_id = \"camera\"\n", file: "t")?.key?.contains("api_key_file") == true)
        #expect(configRefusal("[syncthing]\nenabled = true\napi_key_file = \"/k\"\n", file: "t")?.key?.contains("folder_id") == true)
        #expect(configRefusal("[syncthing]\nfolder_id = \"a b\"\n", file: "t") != nil)
    }
}

extension String {
    /// Test helper (no Foundation): every occurrence of `target` replaced.
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

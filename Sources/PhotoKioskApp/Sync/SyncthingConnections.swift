/// What Syncthing's `GET /rest/system/connections` says: which remote devices are connected now.
/// The frame only receives from phones, so "a phone is here" is "any remote device is connected".
public struct SyncthingConnections: Equatable, Sendable {
    public var connectedDevices: Int

    /// Largest answer read: about 1 KB per paired device.
    public static let maximumBytes = 256 * 1024

    public init(connectedDevices: Int) { self.connectedDevices = connectedDevices }

    public init(parsing bytes: [UInt8]) throws(SyncthingFolderStatus.Refusal) {
        typealias Refusal = SyncthingFolderStatus.Refusal
        guard bytes.count <= Self.maximumBytes else { throw Refusal(description: "answer larger than \(Self.maximumBytes) bytes") }
        let value: JSONValue
        do { value = try JSONReader.value(from: bytes, maximumDepth: 8) } catch { throw Refusal(description: error.description) }
        guard case .object(let members) = value,
              case .object(let devices)? = members.first(where: { $0.0 == "connections" })?.1 else {
            throw Refusal(description: "no \"connections\" object")
        }
        var connected = 0
        for (_, device) in devices {
            guard case .object(let fields) = device,
                  case .bool(let isConnected)? = fields.first(where: { $0.0 == "connected" })?.1 else {
                throw Refusal(description: "a device without \"connected\"")
            }
            if isConnected { connected += 1 }
        }
        self.init(connectedDevices: connected)
    }
}

/// Which CEC adapter switches the TV: the one configured, else the one the kernel ties to the
/// DRM connector the frame draws on (CEC_ADAP_G_CONNECTOR_INFO, Linux 5.10 and later: on a Pi
/// under full KMS each HDMI port has its own /dev/cecN), else the only one there is. Pure: the
/// adapters are described, not opened, so the tests need no device.
public enum CECAdapterChoice {
    public struct Candidate: Equatable, Sendable {
        public var path: String
        /// The DRM card number and connector id the kernel links it to; nil: it does not say.
        public var drmConnector: DRMConnectorLink?
        public init(path: String, drmConnector: DRMConnectorLink?) {
            self.path = path
            self.drmConnector = drmConnector
        }
    }

    public struct DRMConnectorLink: Equatable, Sendable {
        public var card: UInt32
        public var connectorID: UInt32
        public init(card: UInt32, connectorID: UInt32) {
            self.card = card
            self.connectorID = connectorID
        }
    }

    /// The adapter's path and why it was chosen, or why none was.
    public enum Outcome: Equatable, Sendable {
        case chosen(String, why: String)
        case none(String)
    }

    /// `configured`: the path from the config (nil: choose); `output`: the connector drawn on.
    public static func choose(configured: String?, candidates: [Candidate], output: DRMConnectorLink?) -> Outcome {
        if let configured {
            return candidates.contains { $0.path == configured } ? .chosen(configured, why: "configured")
                : .none("\(configured) does not exist (adapters: \(list(candidates)))")
        }
        guard !candidates.isEmpty else { return .none("no CEC adapter (/dev/cec*)") }
        if let output, let linked = candidates.first(where: { $0.drmConnector == output }) {
            return .chosen(linked.path, why: "the adapter of the output drawn on (card \(output.card), connector \(output.connectorID))")
        }
        // Adapters tied to other connectors are not ours; one that says nothing may be.
        let possible = output == nil ? candidates : candidates.filter { $0.drmConnector == nil }
        if possible.count == 1 { return .chosen(possible[0].path, why: "the only one" + (output == nil ? "" : " not tied to another output")) }
        if possible.isEmpty {
            return .none("no CEC adapter belongs to the output drawn on (adapters: \(list(candidates))); set cec.device")
        }
        return .none("\(possible.count) CEC adapters and none is tied to the output drawn on (\(list(possible))); set cec.device")
    }

    private static func list(_ candidates: [Candidate]) -> String {
        candidates.isEmpty ? "none" : candidates.map(\.path).joined(separator: ", ")
    }
}

import PhotoKioskApp
import Platform

extension Doctor {
    /// The CEC adapters and the TV: which adapter the kiosk would use, its physical and logical
    /// address, and the TV's power now (asked with <Give Device Power Status>, from the kiosk's
    /// logical address while it runs, else from a Playback address claimed for the question and
    /// given back).
    static func cecReport(_ config: KioskConfig) -> String {
        let paths = CECAdapter.devicePaths()
        guard config.cec.enabled else {
            return "TV over CEC: off (set [cec] enabled = true)"
                + (paths.isEmpty ? "; no CEC adapter here" : "; adapters: \(paths.joined(separator: ", "))")
        }
        var lines: [String] = []
        for path in paths {
            do {
                let adapter = try CECAdapter(path: path)
                let link = adapter.drmConnector.map { "DRM card \($0.card) connector \($0.connectorID)" } ?? "not tied to a DRM connector"
                lines.append("  \(path): \(adapter.adapterName), \(link)")
            } catch {
                lines.append("  \(path): cannot be opened: \(error)")
            }
        }
        switch Run.chooseCECAdapter(config, output: nil) {
        case .none(let reason):
            return (["TV over CEC: \(paths.count > 1 && config.cec.device == nil ? "the kiosk picks the adapter of the output it draws on" : "MISSING: \(reason)")"] + lines)
                .joined(separator: "\n")
        case .chosen(let path, let why):
            return (["TV over CEC: \(path) (\(why))"] + lines + ["  " + tvStatus(path)]).joined(separator: "\n")
        }
    }

    private static func tvStatus(_ path: String) -> String {
        do {
            let adapter = try CECAdapter(path: path)
            let physical = adapter.physicalAddress
            var text = "physical address \(CECMessage.addressText(physical))"
            if physical == 0xffff { return text + " (no HDMI sink: is the TV connected?); TV power unknown" }
            var claimed = false
            if adapter.logicalAddress == nil {
                try adapter.claimPlayback(waiting: true)
                claimed = true
            }
            defer { if claimed { adapter.release() } }
            guard let logical = adapter.logicalAddress else { return text + "; no logical address could be claimed" }
            text += ", logical address \(logical)\(claimed ? " (claimed for this check; the kiosk is not running)" : " (the running kiosk's)")"
            let answer = try adapter.sendAndWait(.givePowerStatus(from: logical), reply: CECMessage.Opcode.reportPowerStatus)
            guard answer.acknowledged else { return text + "; TV power unknown: the TV did not acknowledge (CEC off on the TV?)" }
            guard let reply = answer.reply, let status = reply.powerStatus else { return text + "; TV power unknown: no answer within 1 s" }
            return text + "; TV power: \(status) (last message: \(reply))"
        } catch {
            return "cannot ask the TV: \(error)"
        }
    }
}

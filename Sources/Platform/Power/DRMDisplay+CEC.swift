/// The output drawn on as the kernel's CEC API names it (card number and connector id), so the
/// CEC adapter of that HDMI port can be picked (`CECAdapterChoice`).
extension DRMDisplay {
    public var drivenConnectorLink: CECAdapterChoice.DRMConnectorLink? {
        guard let connector = activeConnector, let card = kms as? DRMCard,
              let number = UInt32(card.path.split(separator: "/").last?.dropFirst(4) ?? "") else { return nil }
        return CECAdapterChoice.DRMConnectorLink(card: number, connectorID: connector.id)
    }
}

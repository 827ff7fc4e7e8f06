/// DPMS on the connector being driven. While off, the display reports not ready for frames (a
/// page flip on a switched-off CRTC fails); what the app drew meanwhile appears when it is on.
extension DRMDisplay: ScreenPowerControl {
    public var isScreenOn: Bool { !isPoweredOff }

    public var powerControlName: String { "DPMS on \(activeConnector?.name ?? "(no screen)")" }

    public func setScreenOn(_ on: Bool) throws(PlatformError) {
        guard let connector = activeConnector else {
            isPoweredOff = !on   // applied to the next screen's modeset, which turns it on anyway
            return
        }
        try DPMSProperty.set(on, fd: fileDescriptor, connectorID: connector.id, connectorName: connector.name)
        isPoweredOff = !on
        if on { presentDeferred() }
    }
}

/// DPMS on the connector being driven. While off, the display reports not ready for frames (a
/// page flip on a switched-off CRTC fails); what the app drew meanwhile appears when it is on.
extension DRMDisplay: ScreenPowerControl {
    public var isScreenOn: Bool { !isPoweredOff }

    public var powerControlName: String { "DPMS on \(activeConnector?.name ?? "(no screen)")" }

    public func setScreenOn(_ on: Bool) throws(PlatformError) {
        guard let connector = activeConnector else {
            isPoweredOff = !on   // applied after the next screen's modeset (keepBlankAfterModeset)
            return
        }
        try DPMSProperty.set(on, fd: fileDescriptor, connectorID: connector.id, connectorName: connector.name)
        isPoweredOff = !on
        if on { presentDeferred() }
    }

    /// A modeset (screen plugged in, DRM master regained) lights the panel: a screen that the
    /// schedule has off goes dark again.
    func keepBlankAfterModeset() {
        guard isPoweredOff, let connector = activeConnector else { return }
        do {
            try DPMSProperty.set(false, fd: fileDescriptor, connectorID: connector.id, connectorName: connector.name)
        } catch {
            isPoweredOff = false   // it is lit: draw again rather than show a stale frame
        }
    }
}

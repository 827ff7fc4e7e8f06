/// DPMS on the connector being driven. While off, the display reports not ready for frames (a
/// page flip on a switched-off CRTC fails); what the app drew meanwhile appears when it is on.
extension DRMDisplay: ScreenPowerControl {
    public var isScreenOn: Bool { screenWanted }

    public var powerControlName: String { "DPMS on \(activeConnector?.name ?? "(no screen)")" }

    public func setScreenOn(_ on: Bool) throws(PlatformError) {
        guard let connector = activeConnector else {
            screenWanted = on   // applied after the next screen's modeset (keepBlankAfterModeset)
            return
        }
        try kms.setPower(on, connectorID: connector.id, connectorName: connector.name)
        screenWanted = on
        if on { poweredOn() } else { poweredOff() }
    }

    /// A modeset (screen plugged in, DRM master regained) lights the panel: a screen that the
    /// schedule has off goes dark again.
    func keepBlankAfterModeset() {
        guard !screenWanted, let connector = activeConnector else { return }
        do {
            try kms.setPower(false, connectorID: connector.id, connectorName: connector.name)
            poweredOff()
        } catch {
            screenWanted = true   // it is lit: draw again rather than show a stale frame
        }
    }
}

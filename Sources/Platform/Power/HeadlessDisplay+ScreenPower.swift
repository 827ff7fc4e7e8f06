/// The headless screen records the power state instead of switching anything, so tests can see
/// what the schedule decided.
extension HeadlessDisplay: ScreenPowerControl {
    public var powerControlName: String { "headless (recorded)" }

    public func setScreenOn(_ on: Bool) throws(PlatformError) {
        if on != isScreenOn { powerChanges += 1 }
        isScreenOn = on
    }
}

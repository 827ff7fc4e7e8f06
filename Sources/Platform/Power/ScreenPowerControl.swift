/// Turns a screen's picture off and on (the display schedule's "blank"), without giving up the
/// display: DPMS through the DRM connector, or a panel's backlight. The app calls it only when
/// the state changes, so an implementation may do a system call each time.
public protocol ScreenPowerControl: AnyObject {
    /// Whether the picture is on, as far as this control knows (the last state it set).
    var isScreenOn: Bool { get }
    /// Switches the picture on or off. Throws when the device refused (the message says why).
    func setScreenOn(_ on: Bool) throws(PlatformError)
    /// A short name for logs ("DPMS on HDMI-A-1", "backlight rpi_backlight").
    var powerControlName: String { get }
}

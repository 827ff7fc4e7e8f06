import CGST

/// Where a clip's sound plays: an ALSA device, as `aplay -L` lists them ("default",
/// "hdmi:CARD=vc4hdmi0,DEV=0", "plughw:1,0", "sysdefault:CARD=Headphones").
///
/// The name comes from the config file, so it is checked before ALSA sees it: ALSA reads a
/// device name as configuration (arguments, plugin definitions), and a name such as
/// `file:FILE=/var/lib/photokiosk/x` would make it write a file. Only letters, digits and
/// `_ - . : , =` are taken, which every card and plugin name written as above uses, and no
/// `/`, quote, brace or space, which ALSA's file and inline definitions need.
public struct ClipSound: Sendable, Equatable {
    public let device: String

    /// The longest device name taken (ALSA's own names are far shorter).
    public static let maxDeviceLength = 64

    /// nil for a name that is empty, too long, or has a character outside the allowed set.
    public init?(device: String) {
        guard Self.problem(with: device) == nil else { return nil }
        self.device = device
    }

    /// Why clips cannot play sound here (GStreamer or its ALSA sink missing); nil when they can.
    /// Loads GStreamer (`photokiosk doctor` asks).
    public static func playerProblem() -> String? {
        if let problem = ClipDecoder.libraryProblem() { return "GStreamer is not available (\(problem))" }
        return cgst_has_element("alsasink") ? nil : "GStreamer has no alsasink: install gstreamer1.0-alsa"
    }

    /// Why `device` is refused, for the config's message; nil when it is taken.
    public static func problem(with device: String) -> String? {
        if device.isEmpty { return "is empty" }
        if device.utf8.count > maxDeviceLength { return "is longer than \(maxDeviceLength) characters" }
        if let bad = device.unicodeScalars.first(where: { !$0.isASCII || !isAllowed(UInt8($0.value)) }) {
            return "has \"\(bad)\", which an ALSA device name like \"default\" or \"hdmi:CARD=vc4hdmi0,DEV=0\" never needs"
        }
        return nil
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: ","),
             UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }
}

import Glibc

/// How devices are opened: through libseat (seatd/logind, no root or device groups needed),
/// directly (the user needs the video/input groups), or libseat when it works (`auto`).
/// Read from the environment variable PHOTOKIOSK_SEAT.
public enum SeatMode: String, Sendable, CaseIterable {
    case auto, libseat, none

    public static let environmentVariable = "PHOTOKIOSK_SEAT"

    /// The mode PHOTOKIOSK_SEAT asks for; unset or unknown values give `auto` (with a reason).
    public static func fromEnvironment(_ value: String? = getenv(environmentVariable).map { String(cString: $0) })
        -> (mode: SeatMode, warning: String?) {
        guard let value, !value.isEmpty else { return (.auto, nil) }
        if let mode = SeatMode(rawValue: value.lowercased()) { return (mode, nil) }
        return (.auto, "\(environmentVariable)=\(value) is not one of auto, libseat, none: using auto")
    }
}

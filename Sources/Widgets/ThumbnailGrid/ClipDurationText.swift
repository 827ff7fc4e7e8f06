/// A clip's length as the grid's badge shows it, as phones' photo apps do: minutes and seconds
/// ("0:07", "12:30"), hours only when there are some ("1:02:03"). Rounded to the nearest second,
/// but never "0:00" for a clip that has any length.
public enum ClipDurationText {
    public static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return "0:00" }
        let rounded = max(1, seconds + (attoseconds >= 500_000_000_000_000_000 ? 1 : 0))
        let hours = rounded / 3600, minutes = rounded / 60 % 60, secs = rounded % 60
        let twoDigits = { (value: Int64) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}

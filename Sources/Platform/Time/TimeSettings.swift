import CClockStatus
import Glibc

/// The system's time zone and whether its clock is synchronised. The blanking schedule and the
/// overlay's clock use local time, and a Raspberry Pi has no battery clock: a wrong zone, or a
/// clock the network never set, switches the screen at the wrong hour. For `photokiosk doctor`.
public struct TimeSettings: Sendable, Equatable {
    /// "Europe/Berlin", from TZ or the /etc/localtime link; nil when neither names a zone (UTC).
    public var zone: String?
    /// Where `zone` came from ("TZ", "/etc/localtime"), or why there is none.
    public var zoneSource: String
    /// The kernel's view (adjtimex): true once timesyncd, chrony or ntpd set the clock; nil when
    /// the call failed.
    public var isSynchronized: Bool?
    /// systemd-timesyncd's mark of a first synchronisation (/run/systemd/timesync/synchronized).
    public var timesyncdSynchronized: Bool

    public init(zone: String?, zoneSource: String, isSynchronized: Bool?, timesyncdSynchronized: Bool) {
        self.zone = zone
        self.zoneSource = zoneSource
        self.isSynchronized = isSynchronized
        self.timesyncdSynchronized = timesyncdSynchronized
    }

    public static func current(localtime: String = "/etc/localtime",
                               timesyncMark: String = "/run/systemd/timesync/synchronized") -> TimeSettings {
        let (zone, source) = zone(environment: getenv("TZ").map { String(cString: $0) }, localtime: localtime)
        let state = cclock_is_synchronized()
        return TimeSettings(zone: zone, zoneSource: source, isSynchronized: state < 0 ? nil : state == 1,
                            timesyncdSynchronized: access(timesyncMark, F_OK) == 0)
    }

    /// The zone's name: TZ when set (":Europe/Berlin" or "Europe/Berlin"), else the part after
    /// "zoneinfo/" of the /etc/localtime link (what timedatectl reads too).
    public static func zone(environment tz: String?, localtime: String) -> (String?, String) {
        if let tz, !tz.isEmpty { return (tz.hasPrefix(":") ? String(tz.dropFirst()) : tz, "TZ") }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(localtime, &buffer, buffer.count - 1)
        guard count > 0 else {
            return (nil, access(localtime, F_OK) == 0 ? "\(localtime) is not a link to a zone" : "no \(localtime): UTC")
        }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let range = target.firstRange(of: "zoneinfo/") else { return (nil, "\(localtime) -> \(target)") }
        return (String(target[range.upperBound...]), localtime)
    }
}

/// What a remote (the web page, MQTT) may ask the kiosk to do. Every door that takes requests
/// from outside hands them to `KioskApp.perform(_:)`, so they all behave alike.
public enum KioskCommand: Equatable, Sendable {
    /// The next photo: in the slideshow, the next in its order; in the album, the next page.
    case next
    /// The photo before: in the slideshow, the one shown before (in sequential order, the one
    /// before in the library once that history runs out); in the album, the page before.
    case previous
    /// Holds the slideshow on its photo, and keeps it from starting by itself, until `resume`.
    case pause
    case resume
    /// The screen on or off until the schedule next changes (a touch brings a dark screen back).
    case screen(on: Bool)
    /// Starts the slideshow now, or stops it (back to where the person was).
    case slideshow(on: Bool)
    /// Settings changed on the remote page (already checked and saved): applied now, no restart.
    case settings(KioskConfig)
}

/// What became of a command: done, or refused with a reason a person can read.
public enum KioskCommandOutcome: Equatable, Sendable {
    case done
    case refused(String)
}

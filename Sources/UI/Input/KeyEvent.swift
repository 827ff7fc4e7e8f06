/// The few keys the UI navigates with (arrow keys, remote controls, GPIO buttons).
public enum KeyEvent: Sendable, Hashable {
    case left
    case right
    case up
    case down
    case enter
    case escape
    /// Any other key, by its platform key code.
    case other(Int)
}

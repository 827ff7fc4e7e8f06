import UI

/// Reports every touch that lands in its view or any view inside it, and never recognizes
/// anything (it fails at once), so it takes no touch from anyone: the album shows its chrome
/// again on any touch this way.
final class TouchDownObserver: GestureRecognizer {
    private let onTouchDown: () -> Void

    init(_ onTouchDown: @escaping () -> Void) {
        self.onTouchDown = onTouchDown
        super.init()
        cancelsTouchesInView = false
    }

    override func touchesBegan(_ touches: [Touch]) {
        onTouchDown()
        setState(.failed)
    }
}

import Graphics

/// One finger on the screen, from touch-down to lift; the same object for its whole life, so
/// views and recognizers can keep it as a key.
public final class Touch {
    /// Unique per touch (slots are reused, ids never).
    public let id: Int
    public let slot: Int
    public internal(set) var phase: TouchPhase
    /// Window coordinates.
    public internal(set) var location: Point
    public internal(set) var previousLocation: Point
    public let startLocation: Point
    public let startTime: Double
    public internal(set) var timestamp: Double
    /// The view hit at touch-down; nil when the touch began outside every interactive view.
    public internal(set) weak var view: View?

    /// Recognizers attached to `view` and its ancestors when the touch began.
    var recognizers: [GestureRecognizer] = []
    /// How the hit view sees this touch (delays and cancellation by recognizers).
    var delivery: Delivery = .live
    /// Phases held back while a recognizer delays touches (delaysContentTouches).
    var heldPhases: [TouchPhase] = []
    /// True once the view got touchesBegan, until ended or cancelled: the content is tracking.
    public internal(set) var isTrackedByView = false

    enum Delivery {
        /// Goes to the view as it happens.
        case live
        /// Held until the delaying recognizers fail.
        case held
        /// A recognizer took over; the view gets nothing more.
        case cancelled
    }

    init(id: Int, event: TouchEvent, view: View?) {
        self.id = id
        self.slot = event.slot
        self.phase = .began
        self.location = event.location
        self.previousLocation = event.location
        self.startLocation = event.location
        self.startTime = event.timestamp
        self.timestamp = event.timestamp
        self.view = view
    }

    /// The touch's location in `view`'s bounds coordinates (window coordinates for nil).
    public func location(in view: View?) -> Point {
        guard let view else { return location }
        return view.convert(location, from: nil)
    }
}

import Graphics

/// What input devices report, in logical screen pixels, independent of the UI's types (the app
/// translates these into UI touches and commands).
public enum InputEvent: Sendable, Equatable {
    /// A finger (or the mouse, as slot `InputEvent.mouseSlot`) went down, moved, lifted, or was
    /// cancelled. `time` is CLOCK_MONOTONIC seconds, from the kernel's event timestamp.
    case touch(slot: Int, phase: TouchPhase, location: Point, time: Double)
    /// The end of one hardware report: the touches before it happened together.
    case frame(time: Double)
    case key(Key, pressed: Bool, time: Double)
    case deviceAdded(InputDeviceInfo)
    case deviceRemoved(InputDeviceInfo)

    /// The slot a mouse uses when acting as a single finger (well above real touch slots).
    public static let mouseSlot = 1000
}

public enum TouchPhase: Sendable, Equatable {
    case down, motion, up, cancel
}

/// The keys a kiosk reacts to; anything else is `.other(code)` with the Linux key code.
public enum Key: Sendable, Equatable, Hashable {
    case left, right, up, down, enter, escape, q
    /// Ctrl+Alt+Backspace: the traditional "kill the display server" chord.
    case quitChord
    case other(UInt32)
}

public struct InputDeviceInfo: Sendable, Equatable {
    public var name: String
    /// /dev/input/eventN when known.
    public var node: String
    public var isTouchscreen: Bool
    public var isPointer: Bool
    public var isKeyboard: Bool
    /// The device's physical size in millimetres (libinput_device_get_size), when it reports one.
    public var sizeMillimetres: Size?
    /// The calibration matrix in use (LIBINPUT_CALIBRATION_MATRIX), row-major 2×3.
    public var calibration: [Double]
    /// The touch position axes as the kernel reports them (for a HID panel: its descriptor's
    /// logical range), when they could be read.
    public var axisX: AxisRange?
    public var axisY: AxisRange?

    public init(name: String, node: String, isTouchscreen: Bool, isPointer: Bool, isKeyboard: Bool,
                sizeMillimetres: Size? = nil, calibration: [Double] = [1, 0, 0, 0, 1, 0],
                axisX: AxisRange? = nil, axisY: AxisRange? = nil) {
        self.name = name
        self.node = node
        self.isTouchscreen = isTouchscreen
        self.isPointer = isPointer
        self.isKeyboard = isKeyboard
        self.sizeMillimetres = sizeMillimetres
        self.calibration = calibration
        self.axisX = axisX
        self.axisY = axisY
    }
}

/// One absolute axis of an input device: its range in device units and its resolution in units
/// per millimetre (0 when the device does not say).
public struct AxisRange: Sendable, Equatable {
    public var minimum: Int
    public var maximum: Int
    public var resolution: Int
}

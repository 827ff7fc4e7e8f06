import Graphics

/// A display with no screen: frames live in memory, so tests, snapshots and machines without a
/// DRM device can run the whole app. Counts presented frames and the pixels they changed.
public final class HeadlessDisplay: Display {
    public let frameBuffer: Bitmap
    public private(set) var presentedFrames = 0
    public private(set) var lastDamage: [PixelRect] = []
    /// The power state the app last set (see HeadlessDisplay+ScreenPower), and how often it changed.
    public internal(set) var isScreenOn = true
    public internal(set) var powerChanges = 0

    public init(width: Int = 1920, height: Int = 1080) {
        frameBuffer = Bitmap(width: width, height: height, format: .xrgb8888)
    }

    public var name: String { "headless \(frameBuffer.width)x\(frameBuffer.height)" }
    public var size: Size { frameBuffer.size }
    /// The size in millimetres a test or a snapshot pretends the screen has (nil: unknown).
    public var physicalSize: Size?
    public var isReadyForFrame: Bool { true }

    public func present(damage: [PixelRect]) throws {
        lastDamage = damage.map { $0.intersection(frameBuffer.bounds) }.filter { !$0.isEmpty }
        if !lastDamage.isEmpty { presentedFrames += 1 }
    }
}

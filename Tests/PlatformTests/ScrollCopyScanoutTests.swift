import Graphics
import Logging
import Testing
import TestSupport
@testable import Platform

/// A window that scrolls by copying moves pixels inside the frame buffer and reports the moved
/// area as damage (UI's Window.render). With two scanout buffers, each buffer copies what it
/// lacks (this frame's damage plus the frames it missed, DamageTracker), so after each flip the
/// buffer shown must equal the frame buffer everywhere. Played through DRMDisplay.present itself
/// over a recording KMS device, some frames drawn while a flip is still pending.
@Suite struct ScrollCopyScanoutTests {
    static let width = 64, height = 48
    /// The scroll view's clip: the frame buffer outside it never moves.
    static let area = PixelRect(x: 4, y: 6, width: 50, height: 36)

    /// Paints `rect` with a pattern unique to `frame`, so stale pixels cannot match by chance.
    static func paint(_ bitmap: Bitmap, _ rect: PixelRect, frame: Int) {
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                bitmap.setPixel(x: x, y: y, 0xFF00_0000 | UInt32((x * 7 + frame * 13) & 0xFF) << 16 | UInt32((y * 5 + frame) & 0xFF) << 8 | UInt32(frame & 0xFF))
            }
        }
    }

    static func logicalView(of device: Bitmap, rotation: Rotation) -> Bitmap {
        let logical = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let d = rotation.deviceRect(PixelRect(x: x, y: y, width: 1, height: 1), logicalWidth: width, logicalHeight: height)
                logical.setPixel(x: x, y: y, device.pixel(x: d.x, y: d.y))
            }
        }
        return logical
    }

    @Test(arguments: [Rotation.none, .clockwise90])
    func eachBufferShownEqualsTheFrameBuffer(rotation: Rotation) throws {
        let device = rotation.swapsAxes ? (Self.height, Self.width) : (Self.width, Self.height)
        let kms = RecordingKMS(width: device.0, height: device.1)
        let display = try DRMDisplay(kms: kms, configuration: DRMConfiguration(rotation: rotation),
                                     logger: Logger(label: "test.drm"), watchesScreens: false)
        try display.attach(to: SteppedLoop()) { _ in }
        let frame = display.frameBuffer
        #expect(frame.width == Self.width && frame.height == Self.height)
        Self.paint(frame, frame.bounds, frame: 0)
        try display.present(damage: [frame.bounds])
        kms.completeFlip()
        // Moves of the scroll view per frame; a frame in `drawnWhileFlipPending` is presented
        // before the previous frame's flip completed, so its damage waits for that completion.
        let moves = [(0, 5), (0, 5), (0, -3), (2, 0), (0, 11), (-1, -1), (0, 35), (0, 7), (0, 0), (3, 4), (0, -9)]
        let drawnWhileFlipPending: Set<Int> = [4, 8]
        for (i, move) in moves.enumerated() {
            // What Window.render does to the frame buffer: copy, draw the uncovered strip and an
            // overlay that changed, and return the copied area plus what it drew.
            frame.shiftPixels(in: Self.area, dx: move.0, dy: move.1)
            var damage = [Self.area]
            for strip in Self.area.subtracting(Self.area.offsetBy(dx: move.0, dy: move.1)) {
                Self.paint(frame, strip, frame: i + 1)
                damage.append(strip)
            }
            let badge = PixelRect(x: 40 + i % 3, y: 2, width: 10, height: 8)
            Self.paint(frame, badge, frame: 100 + i)
            damage.append(badge)
            try display.present(damage: damage)
            if drawnWhileFlipPending.contains(i + 1) { continue }   // the next frame comes before the vblank
            while kms.queuedFlip != nil { kms.completeFlip() }      // a completion may send a deferred frame
            let shown = Self.logicalView(of: try #require(kms.shown), rotation: rotation)
            let differing = (0..<Self.height).flatMap { y in (0..<Self.width).map { (x: $0, y: y) } }
                .filter { shown.pixel(x: $0.x, y: $0.y) != frame.pixel(x: $0.x, y: $0.y) }
            #expect(differing.count == 0, "frame \(i) (move \(move)): differs at \(differing.prefix(3))")
        }
        #expect(kms.flips == moves.count + 1,
                "one flip per frame: a frame drawn behind a pending flip goes out when it completes")
    }
}

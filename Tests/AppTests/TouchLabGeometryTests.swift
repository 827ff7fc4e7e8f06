import Testing
import Graphics
import Platform
@testable import PhotoKioskApp

/// Recorded positions are normalised panel positions: the same file lands on the same spot of
/// any screen size, and the rotation turns it as LibinputSource would.
@Suite struct TouchLabGeometryTests {
    @Test(arguments: Rotation.allCases)
    func normalisingAndBackIsTheSamePoint(rotation: Rotation) {
        let g = RecordingGeometry(logicalSize: Size(width: 1280, height: 800), rotation: rotation)
        for p in [Point(x: 0, y: 0), Point(x: 100, y: 700), Point(x: 1279, y: 1), Point(x: 640, y: 400)] {
            let n = g.normalised(p)
            #expect(n.x >= 0 && n.x <= 1 && n.y >= 0 && n.y <= 1)
            let back = g.logicalPoint(x: n.x, y: n.y)
            #expect(back.distance(to: p) < 1e-9, "\(rotation): \(p) -> \(n) -> \(back)")
        }
    }

    @Test(arguments: Rotation.allCases)
    func logicalPointsMatchTheLiveInputMapping(rotation: Rotation) {
        let size = Size(width: 1024, height: 600)
        let g = RecordingGeometry(logicalSize: size, rotation: rotation)
        let live = ScreenMapping(logicalSize: size, rotation: rotation)
        let panelPoint = Point(x: 0.3 * Double(live.deviceWidth), y: 0.8 * Double(live.deviceHeight))
        #expect(g.logicalPoint(x: 0.3, y: 0.8).distance(to: live.logical(panelPoint)) < 1e-9)
    }

    @Test func aRecordingLandsOnTheSameRelativeSpotOfAnotherScreenSize() {
        let big = RecordingGeometry(logicalSize: Size(width: 1920, height: 1080), rotation: .none)
        let small = RecordingGeometry(logicalSize: Size(width: 800, height: 480), rotation: .none)
        let n = big.normalised(Point(x: 480, y: 810))
        #expect(small.logicalPoint(x: n.x, y: n.y) == Point(x: 200, y: 360))
    }

    @Test func rotationTurnsThePanelIntoTheLogicalScreen() {
        // A portrait panel (800x1280) mounted at 90°: the logical screen is 1280x800. The panel's
        // top-left corner shows at the logical top-right (the image is turned clockwise).
        let g = RecordingGeometry(logicalSize: Size(width: 1280, height: 800), rotation: .clockwise90)
        #expect(g.panelSize == Size(width: 800, height: 1280))
        #expect(g.logicalPoint(x: 0, y: 0) == Point(x: 0, y: 800))
        #expect(g.logicalPoint(x: 1, y: 0) == Point(x: 0, y: 0))
        // Replayed at 180° instead, a recorded swipe runs the other way across the screen.
        let upsideDown = RecordingGeometry(logicalSize: Size(width: 1280, height: 800), rotation: .upsideDown)
        #expect(upsideDown.logicalPoint(x: 0.25, y: 0.5) == Point(x: 960, y: 400))
    }

    @Test func recorderWritesNormalisedPanelPositionsThatReplayToTheSamePoints() throws {
        let g = RecordingGeometry(logicalSize: Size(width: 1280, height: 800), rotation: .clockwise270)
        let recorder = TouchRecorder(geometry: g)
        recorder.add(.deviceAdded(InputDeviceInfo(name: "Panel", node: "/dev/input/event3", isTouchscreen: true, isPointer: false,
                                                  isKeyboard: false, sizeMillimetres: Size(width: 86, height: 154),
                                                  calibration: [1, 0, 0.01, 0, 1, 0])))
        let points = [Point(x: 10, y: 20), Point(x: 640.5, y: 399.25), Point(x: 1200, y: 790)]
        recorder.add(.touch(slot: 0, phase: .down, location: points[0], time: 50))
        recorder.add(.frame(time: 50))
        recorder.add(.touch(slot: 0, phase: .motion, location: points[1], time: 50.0125))
        recorder.add(.frame(time: 50.0125))
        recorder.add(.touch(slot: InputEvent.mouseSlot, phase: .down, location: points[2], time: 50.02))
        recorder.add(.touch(slot: 0, phase: .up, location: points[1], time: 50.03))
        recorder.add(.frame(time: 50.03))
        recorder.add(.key(.escape, pressed: true, time: 50.5))
        recorder.add(.key(.other(30), pressed: false, time: 50.6))
        recorder.mark("done", at: 51)

        let text = recorder.recording.serialized()
        let back = try TouchRecording(parsing: text)
        #expect(back.entries.count == 10)
        #expect(back.entries.first?.time == 0 && back.duration == 1)
        #expect(back.device?.name == "Panel")
        #expect(back.device?.screen.width == 800 && back.device?.screen.height == 1280)
        #expect(back.device?.rotation == 270)
        #expect(back.device?.calibration == [1, 0, 0.01, 0, 1, 0])
        #expect(back.device?.sizeMillimetres?.height == 154)

        var last: [Int: Point] = [:]
        var replayed: [InputEvent] = []
        for e in back.entries {
            replayed += ReplayInputSource.inputEvents(e.event, at: e.time, geometry: g, last: &last)
        }
        let touches = replayed.compactMap { e -> (Int, Platform.TouchPhase, Point)? in
            if case let .touch(slot, phase, p, _) = e { return (slot, phase, p) } else { return nil }
        }
        #expect(touches.count == 4)
        // Six decimals of a 1280 px axis: within a thousandth of a pixel.
        #expect(touches[0].2.distance(to: points[0]) < 0.002)
        #expect(touches[1].2.distance(to: points[1]) < 0.002)
        #expect(touches[2].0 == InputEvent.mouseSlot && touches[2].2.distance(to: points[2]) < 0.002)
        #expect(touches[3].1 == .up && touches[3].2.distance(to: points[1]) < 0.002)
        #expect(replayed.contains(.key(.escape, pressed: true, time: 0.5)))
        #expect(replayed.contains { if case .key(.other(30), false, _) = $0 { return true } else { return false } })
    }
}

import Testing
import Graphics
@testable import Platform
@testable import PhotoKioskApp

/// `touch-test --report`'s panel figures from scripted input events (times are the events' own).
@Suite struct PanelReportTests {
    static let panel = InputDeviceInfo(
        name: "ELAN Touchscreen", node: "/dev/input/event5", isTouchscreen: true, isPointer: false, isKeyboard: false,
        sizeMillimetres: Size(width: 314.7, height: 170.7),
        axisX: AxisRange(minimum: 0, maximum: 3776, resolution: 12), axisY: AxisRange(minimum: 0, maximum: 2048, resolution: 12))

    /// Two fingers for `frames` frames `interval` apart from `start`; the second lifted at the end
    /// unless `keepSecond`.
    func twoFingers(_ report: inout PanelReport, start: Double, interval: Double, frames: Int, keepSecond: Bool = false) {
        for i in 0..<frames {
            let t = start + Double(i) * interval
            report.observe(.touch(slot: 0, phase: i == 0 ? .down : .motion, location: Point(x: 100 + Double(i), y: 200), time: t))
            report.observe(.touch(slot: 3, phase: i == 0 ? .down : .motion, location: Point(x: 900, y: 700 - Double(i)), time: t))
            report.observe(.frame(time: t))
        }
        let end = start + Double(frames) * interval
        report.observe(.touch(slot: 0, phase: .up, location: .zero, time: end))
        if !keepSecond { report.observe(.touch(slot: 3, phase: .up, location: .zero, time: end)) }
        report.observe(.frame(time: end))
    }

    @Test func namesRangesSizeRateSlotsAndNoFingerLeft() {
        var report = PanelReport()
        report.observe(.deviceAdded(Self.panel))
        twoFingers(&report, start: 5, interval: 0.008, frames: 30)
        // a second contact after a pause: the pause is not an interval
        twoFingers(&report, start: 9, interval: 0.008, frames: 10)
        #expect(report.reportRate.map { abs($0 - 125) < 0.5 } == true)
        let lines = report.lines(panelSize: Size(width: 1280, height: 800))
        #expect(lines.contains("panel ELAN Touchscreen (/dev/input/event5): x 0..3776 (12 units/mm), y 0..2048 (12 units/mm); "
            + "size 314.7x170.7 mm from libinput = 4.07x4.69 px/mm; calibration 1.000000 0.000000 0.000000 0.000000 1.000000 0.000000"))
        #expect(lines.contains("touch frames 42, report rate 125.0 Hz (median of 40 intervals)"))
        #expect(lines.contains("contact slots seen 0,3 (at most 2 at once)"))
        #expect(lines.contains("touched x 100.0..900.0 px, y 200.0..700.0 px"))
        #expect(lines.last == "fingers left down: none")
    }

    @Test func aFingerNeverLiftedIsNamed() {
        var report = PanelReport()
        twoFingers(&report, start: 1, interval: 0.016, frames: 5, keepSecond: true)
        let lines = report.lines(panelSize: Size(width: 1280, height: 800))
        #expect(lines.first == "panel: no touchscreen was added")
        #expect(lines.last == "fingers left down: slot 3 at 900.0,696.0")
    }

    @Test func cancelledTouchesAreNotLeftDownAndMouseAndSilenceAreNoRate() {
        var report = PanelReport()
        report.observe(.touch(slot: InputEvent.mouseSlot, phase: .down, location: Point(x: 5, y: 5), time: 1))
        report.observe(.frame(time: 1))
        #expect(report.frames == 0)
        report.observe(.touch(slot: 1, phase: .down, location: Point(x: 5, y: 5), time: 2))
        report.observe(.frame(time: 2))
        report.observe(.touch(slot: 1, phase: .cancel, location: Point(x: 5, y: 5), time: 3))
        report.observe(.frame(time: 3))
        #expect(report.reportRate == nil)   // a second apart: two contacts' worth, not one at 1 Hz
        let lines = report.lines(panelSize: Size(width: 1280, height: 800))
        #expect(lines.contains("touch frames 2, report rate unknown (no two frames within one contact)"))
        #expect(lines.contains("touches cancelled 1"))
        #expect(lines.last == "fingers left down: none")
    }

    @Test func targetOffsetsInPixelsWhateverThePanelSize() {
        var session = TouchTestSession(targets: TouchTestSession.gridTargets(size: Size(width: 1280, height: 800)),
                                       geometry: RecordingGeometry(logicalSize: Size(width: 1280, height: 800), rotation: .none),
                                       panelMillimetres: Size(width: 154, height: 86))
        session.began(slot: 0, at: session.targets[0] + Point(x: -5, y: 3), time: 1)
        session.ended(slot: 0, at: session.targets[0] + Point(x: -5, y: 3), time: 1.05)
        #expect(session.pixelOffsetLine().hasPrefix("target offsets px: 1 -5.0,3.0; 2 -; 3 -"))
    }
}

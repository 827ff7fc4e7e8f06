import Testing
import Graphics
import Platform
@testable import PhotoKioskApp

/// The touch test's figures for scripted taps with known offsets.
@Suite struct TouchLabTouchTestTests {
    static let screen = Size(width: 1280, height: 800)
    static let panelMM = Size(width: 154, height: 86)

    /// Taps every target in turn at `offset` (logical px), holding each 0.3 s with ±`wobble` px.
    func tapAll(_ session: inout TouchTestSession, offset: (Point) -> Point, wobble: Double = 0.5) {
        var time = 10.0
        for target in session.targets {
            let p = target + offset(target)
            session.began(slot: 0, at: p, time: time)
            for i in 1...18 {
                session.moved(slot: 0, to: p + Point(x: i % 2 == 0 ? wobble : -wobble, y: 0), time: time + Double(i) / 60)
            }
            session.ended(slot: 0, at: p, time: time + 0.3)
            time += 1
        }
    }

    @Test func everyTapTwoMillimetresRightIsMeasuredAndCalibratedAway() throws {
        var session = TouchTestSession(targets: TouchTestSession.gridTargets(size: Self.screen),
                                       geometry: RecordingGeometry(logicalSize: Self.screen, rotation: .none),
                                       panelMillimetres: Self.panelMM)
        let twoMM = 2 * Self.screen.width / Self.panelMM.width
        tapAll(&session, offset: { _ in Point(x: twoMM, y: 0) })
        #expect(session.isComplete)
        #expect(session.outcomes.allSatisfy { if case .hit = $0 { return true } else { return false } })
        let mean = try #require(session.meanOffset)
        #expect(abs(mean.x - twoMM) < 1e-9 && abs(mean.y) < 1e-9)
        #expect(session.needsCalibration)
        let m = try #require(session.fittedCalibration)
        let expected = [1, 0, -2 / Self.panelMM.width, 0, 1, 0]
        for i in 0..<6 { #expect(abs(m[i] - expected[i]) < 1e-6, "matrix \(m)") }
        let report = session.reportLines(deviceName: "Test Panel")
        #expect(report.contains("target 1 at 76,48: offset 2.0,0.0 mm, jitter 0.1 mm"))
        #expect(report.contains("mean offset 2.0,0.0 mm"))
        #expect(report.contains("  ATTRS{name}==\"Test Panel\", ENV{LIBINPUT_CALIBRATION_MATRIX}=\"1.000000 0.000000 -0.012987 0.000000 1.000000 0.000000\""))
        #expect(report.contains("missed 0, doubled 0, not tapped 0"))
    }

    @Test func aScaledAndShiftedPanelIsFittedUnderRotationAndAnExistingMatrix() throws {
        // Taps land 3 % too far from the centre and 5 px low, on a panel mounted at 90° that
        // already has a calibration matrix: applying the suggestion to the raw positions must
        // put every tap on its target.
        let geometry = RecordingGeometry(logicalSize: Self.screen, rotation: .clockwise90)
        let current = [1.02, 0, -0.01, 0, 0.98, 0.02]
        var session = TouchTestSession(targets: TouchTestSession.gridTargets(size: Self.screen), geometry: geometry,
                                       panelMillimetres: Size(width: 86, height: 154), currentCalibration: current)
        let centre = Point(x: 640, y: 400)
        tapAll(&session, offset: { t in (t - centre) * 0.03 + Point(x: 0, y: 5) }, wobble: 0)
        let m = try #require(session.fittedCalibration)
        let inverse = try #require(invert(current))
        for (i, target) in session.targets.enumerated() {
            guard case .hit(let offset) = session.outcomes[i] else { Issue.record("target \(i) missed"); continue }
            let raw = CalibrationFit.apply(inverse, geometry.normalised(target + offset))
            let fixed = CalibrationFit.apply(m, raw)
            let aimed = geometry.normalised(target)
            #expect(abs(fixed.x - aimed.x) < 1e-9 && abs(fixed.y - aimed.y) < 1e-9)
        }
    }

    func invert(_ m: [Double]) -> [Double]? {
        let det = m[0] * m[4] - m[1] * m[3]
        guard abs(det) > 1e-12 else { return nil }
        let a = m[4] / det, b = -m[1] / det, d = -m[3] / det, e = m[0] / det
        return [a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5])]
    }

    @Test func accurateTapsNeedNoCalibration() {
        var session = TouchTestSession(targets: TouchTestSession.gridTargets(size: Self.screen),
                                       geometry: RecordingGeometry(logicalSize: Self.screen, rotation: .none),
                                       panelMillimetres: Self.panelMM)
        tapAll(&session, offset: { t in Point(x: t.x < 640 ? 1 : -1, y: 0) })
        #expect(!session.needsCalibration)
        #expect(!session.reportLines().contains { $0.contains("LIBINPUT_CALIBRATION_MATRIX") })
    }

    @Test func missedDoubledJitterAndEdgesInPixelsWithoutAPanelSize() throws {
        var session = TouchTestSession(targets: TouchTestSession.gridTargets(size: Self.screen),
                                       geometry: RecordingGeometry(logicalSize: Self.screen, rotation: .none))
        let t0 = session.targets[0]
        // Target 1: a tap, then the panel bounces a second tap 80 ms later at the same spot.
        session.began(slot: 0, at: t0, time: 1); session.ended(slot: 0, at: t0, time: 1.05)
        session.began(slot: 0, at: t0 + Point(x: 1, y: 1), time: 1.13); session.ended(slot: 0, at: t0, time: 1.16)
        #expect(session.currentIndex == 1)
        #expect(session.doubled[0] == 1)
        // Target 2: tapped 300 px away: a miss.
        let t1 = session.targets[1]
        session.began(slot: 0, at: t1 + Point(x: 0, y: 300), time: 3); session.ended(slot: 0, at: t1 + Point(x: 0, y: 300), time: 3.05)
        guard case .missed(let o) = session.outcomes[1] else { Issue.record("expected a miss"); return }
        #expect(o == Point(x: 0, y: 300))
        // Target 3: a finger slides to the right edge (a miss); target 4: held still, 2 px wobble.
        session.began(slot: 1, at: Point(x: 1270, y: 400), time: 4)
        session.moved(slot: 1, to: Point(x: 1279, y: 400), time: 4.1)
        session.ended(slot: 1, at: Point(x: 1279, y: 400), time: 4.2)
        let t3 = session.targets[3]
        session.began(slot: 0, at: t3, time: 5)
        for i in 1...30 { session.moved(slot: 0, to: t3 + Point(x: 0, y: i % 2 == 0 ? 2 : -2), time: 5 + Double(i) / 100) }
        session.ended(slot: 0, at: t3, time: 5.4)
        #expect(session.jitter[2] == nil)
        #expect(session.edgeDistance[2] == 0)
        #expect(session.edgeDistance[0] == t0.x)
        let jitter = try #require(session.jitter[3])
        #expect(jitter > 1.5 && jitter < 2.1)
        let report = session.reportLines()
        #expect(report.contains("target 1 at 76,48: offset 0.0,0.0 px, doubled 1×"))
        #expect(report.contains("target 2 at 640,48: MISSED (offset 0.0,300.0 px)"))
        #expect(report.contains("missed 2, doubled 1, not tapped 5"))
        #expect(report.contains { $0.hasPrefix("edge reach (closest touch to each edge): left 76.8 px, top 48.0 px, right 0.0 px") })
        #expect(session.fittedCalibration == nil, "two hits cannot fit a matrix")
    }
}

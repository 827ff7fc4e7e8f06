import Testing
import Glibc
import Graphics
@testable import UI

@Suite struct DecelerationCurveTests {
    @Test func positionsMatchTheClosedForm() {
        let curve = DecelerationCurve(start: 100, velocity: 2000, rate: 0.998)
        for t in stride(from: 0.0, through: 3.0, by: 0.25) {
            let expected = 100 + 2000 * (pow(0.998, 1000 * t) - 1) / (1000 * log(0.998))
            #expect(abs(curve.position(at: t) - expected) < 1e-9)
            #expect(abs(curve.velocity(at: t) - 2000 * pow(0.998, 1000 * t)) < 1e-9)
        }
        #expect(curve.position(at: 0) == 100)
    }

    @Test func restPointIsAboutHalfASecondOfTheStartVelocity() {
        let curve = DecelerationCurve(start: 0, velocity: 1000, rate: DecelerationCurve.normalRate)
        #expect(close(curve.restPosition, 1000 * 0.4995, 0.01))
        #expect(close(curve.restPosition, curve.position(at: 100), 1e-6))
        let fast = DecelerationCurve(start: 0, velocity: 1000, rate: DecelerationCurve.fastRate)
        #expect(fast.restPosition < curve.restPosition / 4)
    }

    @Test func durationEndsHalfAPointBeforeRest() {
        let curve = DecelerationCurve(start: 0, velocity: -3000)
        let d = curve.duration()
        #expect(close(abs(curve.restPosition - curve.position(at: d)), DecelerationCurve.restThreshold, 1e-9))
        #expect(DecelerationCurve(start: 0, velocity: 0.5).duration() == 0)
    }

    @Test func timeToReachInvertsPosition() throws {
        let curve = DecelerationCurve(start: 0, velocity: 2000)
        let t = try #require(curve.time(toReach: 500))
        #expect(close(curve.position(at: t), 500, 1e-9))
        #expect(curve.time(toReach: 5000) == nil)  // stops short (rest ≈ 999)
    }
}

@Suite struct RubberBandTests {
    @Test func distancesFollowTheFormula() {
        let band = RubberBand(dimension: 400)
        #expect(band.distance(forOvershoot: 0) == 0)
        let expected: Double = (1.0 - 1.0 / (100.0 * 0.55 / 400.0 + 1.0)) * 400.0
        #expect(close(band.distance(forOvershoot: 100), expected, 1e-12))
        #expect(close(band.distance(forOvershoot: 100), 48.3516, 1e-4))
        #expect(close(band.distance(forOvershoot: -100), -48.3516, 1e-4))
        // Follows at 0.55 for tiny pulls, never reaches the viewport size.
        #expect(close(band.distance(forOvershoot: 0.01) / 0.01, 0.55, 1e-3))
        #expect(band.distance(forOvershoot: 1e9) < 400)
    }

    @Test func overshootInvertsDistance() {
        let band = RubberBand(dimension: 400)
        for x in [-300.0, -20, 0, 0.5, 80, 1000] {
            #expect(close(band.overshoot(forDistance: band.distance(forOvershoot: x)), x, 1e-6))
        }
        #expect(close(band.unclamp(band.clamp(-70, to: 0...100), from: 0...100), -70, 1e-9))
    }

    @Test func clampKeepsInsideValues() {
        let band = RubberBand(dimension: 300)
        #expect(band.clamp(50, to: 0...100) == 50)
        #expect(close(band.clamp(130, to: 0...100), 100 + band.distance(forOvershoot: 30)))
        #expect(close(band.clamp(-30, to: 0...100), -band.distance(forOvershoot: 30)))
    }
}

@Suite struct SpringTests {
    @Test func criticallyDampedSettlesWithoutOvershoot() {
        let spring = Spring.bounce
        #expect(spring.angularFrequency == 10)
        var t = 0.0
        var settledAt: Double?
        while t < 3 {
            let s = spring.state(at: t, displacement: 120, velocity: 0)
            #expect(s.displacement > 0)  // never crosses the target
            if settledAt == nil && spring.isSettled(displacement: s.displacement, velocity: s.velocity) { settledAt = t }
            t += 1.0 / 240
        }
        #expect(settledAt != nil)
        #expect(settledAt! < 1.0)
    }

    @Test func velocityIntoTheEdgeTurnsBackOnce() {
        // Fling hand-over: at the edge (displacement 0) moving outward at 800 pt/s.
        let spring = Spring.bounce
        var previous = 0.0
        var peaked = false
        for i in 1..<400 {
            let x = spring.state(at: Double(i) / 200, displacement: 0, velocity: 800).displacement
            #expect(x >= 0)
            if x < previous { peaked = true } else { #expect(!peaked) }
            previous = x
        }
        // Peak of (v0·t)e^(−ωt) is at t = 1/ω: v0/(ω·e).
        let peak = spring.state(at: 0.1, displacement: 0, velocity: 800).displacement
        #expect(close(peak, 800 / (10 * M_E), 1e-9))
    }

    @Test func velocityIsTheDerivative() {
        for spring in [Spring.bounce, Spring(mass: 1, stiffness: 200, dampingRatio: 0.5), Spring(mass: 2, stiffness: 50, dampingRatio: 1.5)] {
            let h = 1e-6
            for t in [0.0, 0.05, 0.3] {
                let a = spring.state(at: t, displacement: 40, velocity: -300)
                let b = spring.state(at: t + h, displacement: 40, velocity: -300)
                #expect(close((b.displacement - a.displacement) / h, a.velocity, 1e-2))
            }
            #expect(spring.state(at: 0, displacement: 40, velocity: -300).displacement == 40)
        }
    }
}

@Suite struct VelocityTrackerTests {
    @Test func constantSpeedGivesThatSpeed() {
        var tracker = VelocityTracker()
        for i in 0..<12 {
            let t = Double(i) / 60
            tracker.add(Point(x: 300 * t, y: -1200 * t), at: t)
        }
        #expect(close(tracker.velocity, Point(x: 300, y: -1200), 1e-6))
    }

    @Test func restingBeforeLiftMeansNoVelocity() {
        var tracker = VelocityTracker()
        for i in 0..<10 { tracker.add(Point(x: Double(i) * 20, y: 0), at: Double(i) / 60) }
        tracker.add(Point(x: 180, y: 0), at: 9.0 / 60 + 0.15)
        #expect(tracker.velocity == .zero)
    }
}

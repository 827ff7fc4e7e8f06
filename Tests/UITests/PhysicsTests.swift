import Testing
import Glibc
@testable import UI

@Suite struct DecelerationCurveTests {
    @Test func positionsMatchTheClosedForm() {
        let curve = DecelerationCurve(start: 100, velocity: 2000, rate: 0.998)
        for t in stride(from: 0.0, through: 3.0, by: 0.25) {
            let expected = 100 + 2000 * (pow(0.998, 1000 * t) - 1) / (1000 * log(0.998))
            #expect(abs(curve.position(at: t) - expected) < 1e-9)
        }
        #expect(curve.position(at: 0) == 100)
    }
}

import Basics
import Graphics
/// Fits the affine map that moves where taps landed onto where they were aimed, by least
/// squares, and turns it into a libinput calibration matrix.
///
/// libinput's matrix works on normalised panel coordinates (0...1, before rotation): reported =
/// C · raw. With A fitted so that target ≈ A · reported, the matrix that makes raw land on the
/// target is A · C.
public enum CalibrationFit {
    /// The 2×3 affine matrix (row-major a b c; d e f) mapping `from` onto `to`; nil with fewer
    /// than three points or when they lie on one line.
    public static func affine(from: [(x: Double, y: Double)], to: [(x: Double, y: Double)]) -> [Double]? {
        guard from.count == to.count, from.count >= 3 else { return nil }
        // Normal equations: (Σ u uᵀ) m = Σ u·t with u = (x, y, 1), one solve per output axis.
        var m = [[Double]](repeating: [0, 0, 0], count: 3)
        var bx = [0.0, 0, 0], by = [0.0, 0, 0]
        for (p, t) in zip(from, to) {
            let u = [p.x, p.y, 1]
            for i in 0..<3 {
                for j in 0..<3 { m[i][j] += u[i] * u[j] }
                bx[i] += u[i] * t.x
                by[i] += u[i] * t.y
            }
        }
        guard let rowX = solve(m, bx), let rowY = solve(m, by) else { return nil }
        return rowX + rowY
    }

    /// `a` after `b` (both 2×3 affine, row-major).
    public static func compose(_ a: [Double], _ b: [Double]) -> [Double] {
        [a[0] * b[0] + a[1] * b[3], a[0] * b[1] + a[1] * b[4], a[0] * b[2] + a[1] * b[5] + a[2],
         a[3] * b[0] + a[4] * b[3], a[3] * b[1] + a[4] * b[4], a[3] * b[2] + a[4] * b[5] + a[5]]
    }

    public static func apply(_ m: [Double], _ p: (x: Double, y: Double)) -> (x: Double, y: Double) {
        (m[0] * p.x + m[1] * p.y + m[2], m[3] * p.x + m[4] * p.y + m[5])
    }

    /// The matrix as udev wants it: `ENV{LIBINPUT_CALIBRATION_MATRIX}="a b c d e f"`.
    public static func udevValue(_ m: [Double]) -> String {
        m.map { fixed6($0) }.joined(separator: " ")
    }

    /// Gaussian elimination with partial pivoting on a 3×3 system.
    static func solve(_ matrix: [[Double]], _ rhs: [Double]) -> [Double]? {
        var a = matrix, b = rhs
        for col in 0..<3 {
            let pivot = (col..<3).max { abs(a[$0][col]) < abs(a[$1][col]) }!
            guard abs(a[pivot][col]) > 1e-12 else { return nil }
            a.swapAt(col, pivot)
            b.swapAt(col, pivot)
            for row in 0..<3 where row != col {
                let f = a[row][col] / a[col][col]
                for k in 0..<3 { a[row][k] -= f * a[col][k] }
                b[row] -= f * b[col]
            }
        }
        return (0..<3).map { b[$0] / a[$0][$0] }
    }
}

/// Six decimals, without Foundation.
func fixed6(_ v: Double) -> String { decimalText(v, places: 6) }


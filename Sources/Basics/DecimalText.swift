/// Numbers as text with a fixed number of decimals ("12.50"), for captions, logs and text files.
/// Swift's standard library has no fixed-decimal formatting and full Foundation is too big for a
/// Pi binary, so this is the one implementation every layer uses.
public func decimalText(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<max(0, places) { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    // Beyond Int64 (a byte count written with many places) the digits are Swift's own.
    guard scaled < 9.0e18 else { return "\(value)" }
    var digits = String(Int64(scaled))
    if places > 0 {
        while digits.count <= places { digits = "0" + digits }
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -places))
    }
    return (value < 0 && scaled != 0 ? "-" : "") + digits
}

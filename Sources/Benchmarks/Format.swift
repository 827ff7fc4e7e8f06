import Basics
import Graphics

/// `decimalText` (the tree's one decimal formatter), with "n/a" for a figure that could not be
/// measured (NaN, infinity).
func fixed(_ value: Double, _ digits: Int) -> String {
    value.isFinite ? decimalText(value, places: digits) : "n/a"
}

/// Milliseconds from seconds, with precision suited to the size.
func ms(_ seconds: Double) -> String {
    let m = seconds * 1000
    return fixed(m, m < 1 ? 3 : m < 100 ? 2 : 0)
}

func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

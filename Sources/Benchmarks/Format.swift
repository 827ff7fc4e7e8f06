/// Number formatting without Foundation.
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (abs(value) * scale).rounded()
    let whole = Int(rounded / scale)
    var text = String(whole)
    if digits > 0 {
        let fraction = Int(rounded - Double(whole) * scale)
        var f = String(fraction)
        while f.count < digits { f = "0" + f }
        text += "." + f
    }
    return (value < 0 && rounded > 0 ? "-" : "") + text
}

/// Milliseconds from seconds, with precision suited to the size.
func ms(_ seconds: Double) -> String {
    let m = seconds * 1000
    return fixed(m, m < 1 ? 3 : m < 100 ? 2 : 0)
}

func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

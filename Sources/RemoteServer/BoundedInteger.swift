/// Integers from a request (query parameters, headers): plain decimal digits only, within a
/// stated range, so no value a client sends can overflow the arithmetic done with it later.
/// Every refusal says why, for a 400 answer.
public enum BoundedInteger {
    /// `text` as an Int in `range`, or why not ("page must be a whole number from 1 to 1000000").
    /// Signs, spaces, hex and leading "+" are refused; a number too long to parse is out of range.
    public static func parse(_ text: String, name: String, range: ClosedRange<Int>) -> Result<Int, Refusal> {
        let refusal = Refusal(message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .failure(refusal)
        }
        var value = 0
        for digit in digits {
            let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            guard !overflowA, !overflowB, sum <= range.upperBound else { return .failure(refusal) }
            value = sum
        }
        guard range.contains(value) else { return .failure(refusal) }
        return .success(value)
    }

    public struct Refusal: Error, Equatable, Sendable {
        public var message: String
    }
}

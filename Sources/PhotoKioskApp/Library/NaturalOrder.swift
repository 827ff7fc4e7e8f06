import Imaging

/// Orders names the way people read them: case-insensitive (ASCII), runs of digits compared as
/// numbers ("IMG_9" before "IMG_10"), and `/` before any other character so a folder's own
/// files come before a sibling folder whose name extends it ("2024/x" before "2024 trip/x").
/// Non-ASCII bytes compare by value, which keeps UTF-8 names grouped and the order total.
public enum NaturalOrder {
    public static func precedes(_ a: RawPath, _ b: RawPath) -> Bool {
        compare(a.bytes, b.bytes) < 0
    }

    /// Negative, zero or positive like strcmp. Zero only for identical byte strings, so sorting
    /// is deterministic even for names that differ only in case or leading zeros.
    public static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in compare(a, b) } }
    }

    /// The same over bytes in place (a directory listing's names, without an array each).
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0, j = 0
        var tieBreak = 0   // first case or zero-padding difference, used only if all else is equal
        while i < a.count && j < b.count {
            let x = a[i], y = b[j]
            if isDigit(x) && isDigit(y) {
                let (startA, endA) = digitRun(a, from: i)
                let (startB, endB) = digitRun(b, from: j)
                let lengthA = endA - startA, lengthB = endB - startB
                if lengthA != lengthB { return lengthA - lengthB }
                for k in 0..<lengthA where a[startA + k] != b[startB + k] {
                    return Int(a[startA + k]) - Int(b[startB + k])
                }
                if tieBreak == 0 { tieBreak = (startA - i) - (startB - j) }
                i = endA
                j = endB
                continue
            }
            let foldedX = fold(x), foldedY = fold(y)
            if foldedX != foldedY { return foldedX - foldedY }
            if tieBreak == 0 && x != y { tieBreak = Int(x) - Int(y) }
            i += 1
            j += 1
        }
        let remaining = (a.count - i) - (b.count - j)
        if remaining != 0 { return remaining }
        return tieBreak != 0 ? tieBreak : (a.elementsEqual(b) ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    /// The significant digits of the run at `start` (leading zeros skipped) and where it ends.
    private static func digitRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Int) {
        var end = start
        while end < bytes.count && isDigit(bytes[end]) { end += 1 }
        var significant = start
        while significant < end - 1 && bytes[significant] == 48 { significant += 1 }
        return (significant, end)
    }

    /// Sort weight of a byte: `/` lowest, ASCII letters folded to lower case.
    private static func fold(_ byte: UInt8) -> Int {
        if byte == UInt8(ascii: "/") { return -1 }
        if byte >= 65 && byte <= 90 { return Int(byte) + 32 }
        return Int(byte)
    }
}

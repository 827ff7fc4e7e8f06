/// Hexadecimal text of a number or of bytes, zero-padded to the width of the type (two digits a
/// byte, sixteen a UInt64): the one spelling of cache file names, random names and escaped path
/// bytes.
public func hexDigits<T: FixedWidthInteger & UnsignedInteger>(_ value: T, uppercase: Bool = false) -> String {
    let digits = String(value, radix: 16, uppercase: uppercase)
    return String(repeating: "0", count: T.bitWidth / 4 - digits.count) + digits
}

public func hexDigits(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
    bytes.map { hexDigits($0, uppercase: uppercase) }.joined()
}

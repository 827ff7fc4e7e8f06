extension String {
    /// Bytes shown as text: invalid UTF-8 becomes U+FFFD (for display only).
    init(lossyBytes bytes: [UInt8]) { self = String(decoding: bytes, as: UTF8.self) }
}

/// Percent-encoding of raw bytes for a URL path segment (RFC 3986 unreserved kept).
func percentEncoded(_ bytes: [UInt8]) -> String {
    let unreserved = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))
    let digits = Array("0123456789ABCDEF")
    var out = ""
    for byte in bytes {
        if unreserved.contains(byte) {
            out.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
            out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
        }
    }
    return out
}

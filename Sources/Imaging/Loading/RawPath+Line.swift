import SystemAccess

/// A path as one line of text that gives back exactly the same bytes, for the small state
/// files (resume, custom order): names that are valid UTF-8 stay readable, and a backslash, a
/// line break and every byte that is not UTF-8 (a FAT stick written in a Windows code page)
/// become `\\`, `\n`, `\r` and `\xHH`.
extension RawPath {
    public var escapedLine: String {
        var out = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                offset += encoded.count
                let scalar = Unicode.UTF8.decode(encoded)
                switch scalar {
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                default: out.unicodeScalars.append(scalar)
                }
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] { out += "\\x" + hexDigits(byte, uppercase: true) }
                offset += length
            case .emptyInput:
                return out
            }
        }
    }

    /// Reads `escapedLine` back; nil when the text has an escape it never writes.
    public init?(escapedLine line: String) {
        var bytes: [UInt8] = []
        var scalars = line.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\" else {
                bytes.append(contentsOf: String(scalar).utf8)
                continue
            }
            switch scalars.next() {
            case "\\": bytes.append(UInt8(ascii: "\\"))
            case "n": bytes.append(UInt8(ascii: "\n"))
            case "r": bytes.append(UInt8(ascii: "\r"))
            case "x":
                guard let high = scalars.next(), let low = scalars.next(),
                      let byte = UInt8(String(high) + String(low), radix: 16) else { return nil }
                bytes.append(byte)
            default: return nil
            }
        }
        self.init(bytes: bytes)
    }
}

extension RawPath: ExpressibleByStringInterpolation {}

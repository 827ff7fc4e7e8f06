/// FNV-1a, 64 bits: names cache files after their key. Not cryptographic; the full key is also
/// stored inside each file and compared, so a collision is a miss, never a wrong picture.
struct FNV1a64 {
    private(set) var value: UInt64

    init(basis: UInt64 = 0xCBF2_9CE4_8422_2325) { value = basis }

    mutating func combine<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
    }
}

/// A fast checksum over memory (pixels, a listing snapshot), eight bytes at a step, to notice
/// torn or bit-rotted files.
public func pixelChecksum(_ memory: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
    let words = memory.count / 8
    for index in 0..<words {
        let word = memory.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
        hash = (hash ^ word) &* 0x0000_0100_0000_01B3
        hash ^= hash >> 29
    }
    for index in (words * 8)..<memory.count {
        hash = (hash ^ UInt64(memory[index])) &* 0x0000_0100_0000_01B3
    }
    return hash
}

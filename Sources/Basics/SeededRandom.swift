/// SeededRandom: a small, fast, seedable generator, the one the whole tree uses where a random
/// sequence must be repeatable: a slideshow shuffle (seeded from the system generator on the
/// kiosk, fixed in tests), generated benchmark photos, and tests that replay a failing sequence
/// from its seed. Not for secrets (`SystemRandomNumberGenerator` is).
public struct SeededRandom: RandomNumberGenerator, Equatable, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import Foundation

/// SplitMix64: a tiny seeded generator, so every test run draws the same numbers (noisy drives,
/// property tests, fuzz inputs). For tests only; not a cryptographic generator.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0; the modulo bias is irrelevant for tests).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A random byte.
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }

    /// A standard normal sample (Box-Muller).
    public mutating func gaussian() -> Double {
        let u1 = max(Double(next() >> 11) / Double(1 << 53), 1e-300)
        let u2 = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

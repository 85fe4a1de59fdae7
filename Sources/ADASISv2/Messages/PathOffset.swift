/// The 13-bit Offset field: metres from the start of a path, cyclic modulo 8191 (8191 = invalid).
public enum PathOffset {
    /// The number of distinct offsets: transmitted offsets are absolute offsets modulo this.
    public static let period = 8191
    /// The code of an invalid offset.
    public static let invalid: UInt16 = 8191

    /// Absolute metres from the path start (may exceed 8190) → the transmitted offset
    /// (`absolute` modulo 8191, so never the invalid code; negative inputs wrap too).
    public static func wrapped(_ absolute: Int) -> UInt16 {
        let remainder = absolute % period
        return UInt16(remainder < 0 ? remainder + period : remainder)
    }

    /// The absolute offset congruent to `offset` modulo 8191 that is nearest to `reference`
    /// (ties resolved forward); `nil` for the invalid code 8191.
    public static func unwrapped(_ offset: UInt16, near reference: Int) -> Int? {
        unwrapped(offset, from: clamped(reference) - period / 2)
    }

    /// The absolute offset congruent to `offset` modulo 8191 in the window
    /// `lowerBound ..< lowerBound + 8191`; `nil` for the invalid code 8191.
    public static func unwrapped(_ offset: UInt16, from lowerBound: Int) -> Int? {
        guard offset < invalid else { return nil }
        let lowerBound = clamped(lowerBound)
        let shift = Int(offset) - Int(wrapped(lowerBound))
        return lowerBound + (shift < 0 ? shift + period : shift)
    }

    /// Keeps references far from the integer limits so the arithmetic cannot overflow.
    private static func clamped(_ value: Int) -> Int { min(max(value, Int.min / 2), Int.max / 2) }
}

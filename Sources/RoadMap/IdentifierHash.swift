/// The hash that identifiers give dictionaries and sets (their `_rawHashValue(seed:)`): the
/// splitmix64 finalizer over the identifier's word and the table's seed.
///
/// The matcher, the horizon engine and the provider look identifiers up several hundred times
/// per fix; the standard library's hash (SipHash-1-3) spends about a hundred instructions on one
/// word, this about ten, and still changes every output bit with every input bit, so the low bits
/// a table indexes by are as good. The table's seed is mixed in first, so tables of different
/// sizes still order the same keys differently (what keeps copying between them linear).
/// Identifiers come from the map file and the engine's own counters, not from the outside.
public enum IdentifierHash {
    /// The hash of `word` in a table seeded with `seed`.
    @inlinable
    public static func of(_ word: UInt64, seed: Int) -> Int {
        var z = (word ^ UInt64(bitPattern: Int64(seed))) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(bitPattern: UInt(truncatingIfNeeded: z ^ (z &>> 31)))
    }
}

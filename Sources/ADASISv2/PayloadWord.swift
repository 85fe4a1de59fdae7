/// The 8 payload bytes of a frame held as one word, the first byte in the most significant
/// position: `word >> 56` is byte 0, `word & 0xFF` byte 7. A word is a value (nothing to allocate,
/// retain or free), so the provider hands each frame's bytes on as one.
public enum PayloadWord {
    /// Byte `index` (0…7) of `word`.
    @inlinable
    public static func byte(_ word: UInt64, at index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * index))
    }

    /// The 8 bytes of `word`, byte 0 first.
    public static func bytes(_ word: UInt64) -> [UInt8] {
        (0..<8).map { byte(word, at: $0) }
    }
}

/// A set of ADASIS v2 path indices (0…63, six bits on the wire) held as one 64-bit mask: the
/// provider asks which indices are in use, resting or held by a receiver for every sub-path it
/// gives an index, and a hashed `Set<UInt8>` built and searched each time was a tenth of the
/// ticks that send a new tree.
struct PathIndexSet: Equatable, Sendable, ExpressibleByArrayLiteral, Sequence {
    /// Bit `i` set: index `i` is in the set.
    private(set) var bits: UInt64 = 0

    /// An empty set.
    init() {}

    /// The set of `indices` (each below 64).
    init(arrayLiteral indices: UInt8...) {
        self.init(indices)
    }

    /// The set of `indices` (each below 64).
    init(_ indices: some Sequence<UInt8>) {
        for index in indices { insert(index) }
    }

    /// Whether `index` is in the set; indices of 64 and above never are.
    func contains(_ index: UInt8) -> Bool {
        index < 64 && bits & (1 << UInt64(index)) != 0
    }

    /// Adds `index` (below 64).
    mutating func insert(_ index: UInt8) {
        precondition(index < 64, "ADASIS v2 path indices are 0…63, got \(index)")
        bits |= 1 << UInt64(index)
    }

    /// Removes `index`; returns whether it was in the set.
    @discardableResult
    mutating func remove(_ index: UInt8) -> Bool {
        let present = contains(index)
        if present { bits &= ~(1 << UInt64(index)) }
        return present
    }

    /// Whether the set is empty.
    var isEmpty: Bool { bits == 0 }

    /// The number of indices in the set.
    var count: Int { bits.nonzeroBitCount }

    /// The indices in ascending order.
    func makeIterator() -> Iterator { Iterator(rest: bits) }

    /// Walks the set bits from the lowest.
    struct Iterator: IteratorProtocol {
        var rest: UInt64

        mutating func next() -> UInt8? {
            guard rest != 0 else { return nil }
            let index = UInt8(rest.trailingZeroBitCount)
            rest &= rest - 1
            return index
        }
    }
}

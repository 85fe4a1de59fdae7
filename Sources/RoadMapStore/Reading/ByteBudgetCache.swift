import RoadMap

/// A least-recently-used cache whose capacity is a byte budget rather than an entry count.
///
/// Decoded map tiles differ widely in size, so the map reader bounds memory by the sum of the
/// entries' byte costs. Inserting beyond the budget evicts the least recently used entries
/// (looked up or inserted longest ago). An entry larger than the whole budget is not kept.
/// Not thread-safe by itself: the owner serialises access.
package struct ByteBudgetCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var value: Value
        var cost: Int
        var lastUse: UInt64
    }

    /// The maximum total cost in bytes.
    package let byteBudget: Int
    /// The current total cost of all entries in bytes.
    package private(set) var totalCost = 0
    private var entries: [Key: Entry] = [:]
    private var useCounter: UInt64 = 0

    /// Creates an empty cache that holds at most `byteBudget` bytes.
    package init(byteBudget: Int) {
        self.byteBudget = max(0, byteBudget)
    }

    /// The number of entries.
    package var count: Int { entries.count }

    /// Returns the value for `key` and marks it most recently used.
    package mutating func value(for key: Key) -> Value? {
        guard let index = entries.index(forKey: key) else { return nil }
        useCounter += 1
        entries.values[index].lastUse = useCounter
        return entries.values[index].value
    }

    /// Calls `body` with the value for `key` where it is stored, without copying it, and marks it
    /// most recently used; `nil` when `key` is not cached. For reading a small part of a large
    /// value (one link of a decoded tile) without retaining and releasing all of it.
    package mutating func withValue<Result>(
        for key: Key, _ body: (inout Value) throws -> Result
    ) rethrows -> Result? {
        guard let index = entries.index(forKey: key) else { return nil }
        useCounter += 1
        entries.values[index].lastUse = useCounter
        return try body(&entries.values[index].value)
    }

    /// Whether `key` is cached (does not change its recency).
    package func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// Inserts or replaces the value for `key` with a cost in bytes, evicting least recently
    /// used entries until the total fits the budget. Returns the entries evicted, oldest first.
    @discardableResult
    package mutating func insert(_ value: Value, for key: Key, cost: Int) -> [(key: Key, value: Value)] {
        if let old = entries.removeValue(forKey: key) { totalCost -= old.cost }
        guard cost <= byteBudget else { return [] }
        useCounter += 1
        entries[key] = Entry(value: value, cost: cost, lastUse: useCounter)
        totalCost += cost
        var evicted: [(key: Key, value: Value)] = []
        while totalCost > byteBudget,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            entries.removeValue(forKey: oldest.key)
            totalCost -= oldest.value.cost
            evicted.append((oldest.key, oldest.value.value))
        }
        return evicted
    }
}

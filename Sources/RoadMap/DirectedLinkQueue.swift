/// A binary min-heap of directed links by key, for searches over the road graph (the matcher's
/// route distances, the route planner). Ties go to the smaller link, so a search visits links in
/// the same order on every run. Entries are never removed early: a caller skips a popped entry
/// that is stale for its search. Each entry may carry a tag of the caller's (the matcher's search
/// keeps its per-link state by a slot number, which would otherwise be looked up again at every
/// pop); it fills the entry's padding, so it costs no room.
public struct DirectedLinkQueue: Sendable {
    private typealias Entry = (key: Double, link: DirectedLink, tag: Int32)
    private var entries: [Entry] = []

    /// Whether no entry is left.
    public var isEmpty: Bool { entries.isEmpty }

    /// The smallest key, or infinity when empty.
    public var topKey: Double { entries.first?.key ?? .infinity }

    /// An empty queue.
    public init() {}

    /// Adds `link` with `key`. (Both sifts move a hole rather than swap, on the storage in place:
    /// the entries end where swaps would leave them, at a fraction of the moves and bounds checks.)
    public mutating func push(_ key: Double, _ link: DirectedLink, tag: Int32 = 0) {
        let item: Entry = (key, link, tag)
        entries.append(item)
        entries.withUnsafeMutableBufferPointer { entries in
            var child = entries.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.precedes(item, entries[parent]) else { break }
                entries[child] = entries[parent]
                child = parent
            }
            entries[child] = item
        }
    }

    /// Removes and returns the entry with the smallest key (the smaller link on a tie).
    public mutating func pop() -> (key: Double, link: DirectedLink)? {
        popTagged().map { ($0.key, $0.link) }
    }

    /// ``pop()`` with the entry's tag.
    public mutating func popTagged() -> (key: Double, link: DirectedLink, tag: Int32)? {
        guard let first = entries.first else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first }
        entries.withUnsafeMutableBufferPointer { entries in
            let count = entries.count
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < count else { break }
                var child = left
                if left + 1 < count, Self.precedes(entries[left + 1], entries[left]) { child = left + 1 }
                guard Self.precedes(entries[child], last) else { break }
                entries[parent] = entries[child]
                parent = child
            }
            entries[parent] = last
        }
        return first
    }

    /// Empties the queue, keeping its storage for the next search.
    public mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.key < b.key || (a.key == b.key && a.link < b.link)
    }
}

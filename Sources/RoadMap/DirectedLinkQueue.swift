/// A binary min-heap of directed links by key, for searches over the road graph (the matcher's
/// route distances, the route planner). Ties go to the smaller link, so a search visits links in
/// the same order on every run. Entries are never removed early: a caller skips a popped entry
/// that is stale for its search.
public struct DirectedLinkQueue: Sendable {
    private var entries: [(key: Double, link: DirectedLink)] = []

    /// Whether no entry is left.
    public var isEmpty: Bool { entries.isEmpty }

    /// The smallest key, or infinity when empty.
    public var topKey: Double { entries.first?.key ?? .infinity }

    /// An empty queue.
    public init() {}

    /// Adds `link` with `key`.
    public mutating func push(_ key: Double, _ link: DirectedLink) {
        entries.append((key, link))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the entry with the smallest key (the smaller link on a tie).
    public mutating func pop() -> (key: Double, link: DirectedLink)? {
        guard let first = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < entries.count, precedes(entries[left], entries[smallest]) { smallest = left }
                if right < entries.count, precedes(entries[right], entries[smallest]) { smallest = right }
                if smallest == parent { break }
                entries.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }

    /// Empties the queue, keeping its storage for the next search.
    public mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    private func precedes(_ a: (key: Double, link: DirectedLink), _ b: (key: Double, link: DirectedLink)) -> Bool {
        a.key < b.key || (a.key == b.key && a.link < b.link)
    }
}

import RoadMap

/// A binary min-heap of directed links by key; ties go to the smaller link, so a search visits
/// links in the same order on every run. Entries are never removed early: a popped entry whose
/// key is above the link's current label is stale and skipped by the caller.
struct SearchQueue {
    private var entries: [(key: Double, link: DirectedLink)] = []

    var isEmpty: Bool { entries.isEmpty }

    /// The smallest key, or infinity when empty.
    var topKey: Double { entries.first?.key ?? .infinity }

    mutating func push(_ key: Double, _ link: DirectedLink) {
        entries.append((key, link))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (key: Double, link: DirectedLink)? {
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

    private func precedes(_ a: (key: Double, link: DirectedLink), _ b: (key: Double, link: DirectedLink)) -> Bool {
        a.key < b.key || (a.key == b.key && a.link < b.link)
    }
}

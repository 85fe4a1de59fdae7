import RoadMap

/// Shortest legal driving distances from one candidate to many: a Dijkstra search over directed
/// links (oneway and turn restrictions respected through `successors(of:)`), bounded in distance.
///
/// Keeps its buffers between calls so the per-fix hot path does not allocate once warmed up.
struct RouteDistanceSearch {
    private var topology = LinkTopologyCache()
    /// Binary min-heap of (distance at the entry of a link, link).
    private var heap: [(distance: Double, link: DirectedLink)] = []
    /// Settled entry distances of directed links.
    private var settled: [DirectedLink: Double] = [:]
    /// Target links not yet settled.
    private var pending: Set<DirectedLink> = []

    /// Distance a vehicle may move backwards on the same link and still count as staying there
    /// (GNSS noise on a stopped or slow vehicle), metres.
    var backwardTolerance: Double = 15
    /// Extra distance charged for a U-turn at a node, metres.
    var uTurnPenalty: Double = 50

    /// Writes into `distances[j]` the route distance from `source` to `targets[j]`, or `.infinity`
    /// when it is not reachable within `limit` metres.
    mutating func distances(
        from source: MatchCandidate, to targets: [MatchCandidate], limit: Double,
        in network: any RoadNetwork, into distances: inout [Double]
    ) throws {
        distances.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        for target in targets {
            let along = target.offset - source.offset
            if target.link == source.link, along >= -backwardTolerance {
                distances.append(abs(along))
            } else {
                distances.append(.infinity)
                pending.insert(target.link)
            }
        }
        guard !pending.isEmpty else { return }
        try search(from: source, limit: limit, in: network)
        for (j, target) in targets.enumerated() where distances[j] == .infinity {
            if let entry = settled[target.link], entry + target.offset <= limit {
                distances[j] = entry + target.offset
            }
        }
    }

    /// The directed links a vehicle may enter at the exit of `link` (from the topology cache).
    mutating func successors(of link: DirectedLink, in network: any RoadNetwork) throws -> [DirectedLink] {
        try topology.entry(for: link, in: network).successors
    }

    /// Forgets cached topology (after the network changed, or on reset).
    mutating func removeAll() {
        topology.removeAll()
    }

    private mutating func search(from source: MatchCandidate, limit: Double, in network: any RoadNetwork) throws {
        heap.removeAll(keepingCapacity: true)
        settled.removeAll(keepingCapacity: true)
        let start = try topology.entry(for: source.link, in: network)
        let toExit = max(0, source.length - source.offset)
        for next in start.successors {
            push(toExit + (next == source.link.reversed ? uTurnPenalty : 0), next)
        }
        while let (distance, link) = popMin() {
            if distance > limit { break }
            if settled[link] != nil { continue }
            settled[link] = distance
            if pending.remove(link) != nil, pending.isEmpty { break }
            let entry = try topology.entry(for: link, in: network)
            let atExit = distance + entry.length
            if atExit > limit { continue }
            for next in entry.successors where settled[next] == nil {
                push(atExit + (next == link.reversed ? uTurnPenalty : 0), next)
            }
        }
    }

    private mutating func push(_ distance: Double, _ link: DirectedLink) {
        heap.append((distance, link))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if isBefore(heap[parent], heap[child]) { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func popMin() -> (Double, DirectedLink)? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, isBefore(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count, isBefore(heap[right], heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }

    /// Heap order: by distance, ties by link, so the search is deterministic.
    private func isBefore(_ a: (distance: Double, link: DirectedLink), _ b: (distance: Double, link: DirectedLink))
        -> Bool
    {
        a.distance < b.distance || (a.distance == b.distance && a.link < b.link)
    }
}

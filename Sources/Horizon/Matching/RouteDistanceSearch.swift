import RoadMap

/// Shortest legal driving distances from one candidate to many: a Dijkstra search over directed
/// links (oneway and turn restrictions respected through `successors(of:)`), bounded in distance.
///
/// Keeps its buffers between calls so the per-fix hot path does not allocate once warmed up.
struct RouteDistanceSearch {
    private var topology = LinkTopologyCache()
    /// Links by the distance at their entry.
    private var queue = DirectedLinkQueue()
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
        queue.removeAll()
        settled.removeAll(keepingCapacity: true)
        let start = try topology.entry(for: source.link, in: network)
        let toExit = max(0, source.length - source.offset)
        for next in start.successors {
            queue.push(toExit + (next == source.link.reversed ? uTurnPenalty : 0), next)
        }
        while let (distance, link) = queue.pop() {
            if distance > limit { break }
            if settled[link] != nil { continue }
            settled[link] = distance
            if pending.remove(link) != nil, pending.isEmpty { break }
            let entry = try topology.entry(for: link, in: network)
            let atExit = distance + entry.length
            if atExit > limit { continue }
            for next in entry.successors where settled[next] == nil {
                queue.push(atExit + (next == link.reversed ? uTurnPenalty : 0), next)
            }
        }
    }
}

import RoadMap

/// Shortest legal driving distances from one candidate to many: a Dijkstra search over directed
/// links (oneway and turn restrictions respected through `successors(of:)`), bounded in distance.
///
/// Keeps its buffers between calls so the per-fix hot path does not allocate once warmed up.
/// Per-link state lives in arrays indexed by the topology cache's slots, marked with the number
/// of the search that wrote it, so a search neither hashes per visited link nor clears its state.
struct RouteDistanceSearch {
    private var topology = LinkTopologyCache()
    /// Links by the distance at their entry.
    private var queue = DirectedLinkQueue()
    /// The current search's number; a slot's state below belongs to it when marked with it.
    private var generation: UInt32 = 0
    /// By slot: the settled entry distance, valid when `settledIn` is `generation`.
    private var settledDistance: [Double] = []
    private var settledIn: [UInt32] = []
    /// By slot: `generation` while the link is a target not yet settled.
    private var pendingIn: [UInt32] = []
    /// Target links not yet settled.
    private var pendingCount = 0

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
        topology.startOverIfFull()
        startSearch()
        for target in targets {
            let along = target.offset - source.offset
            if target.link == source.link, along >= -backwardTolerance {
                distances.append(abs(along))
            } else {
                distances.append(.infinity)
                let slot = topology.slot(for: target.link)
                growState()
                if pendingIn[slot] != generation {
                    pendingIn[slot] = generation
                    pendingCount += 1
                }
            }
        }
        guard pendingCount > 0 else { return }
        try search(from: source, limit: limit, in: network)
        for (j, target) in targets.enumerated() where distances[j] == .infinity {
            if let slot = topology.existingSlot(for: target.link), settledIn[slot] == generation,
                settledDistance[slot] + target.offset <= limit
            {
                distances[j] = settledDistance[slot] + target.offset
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

    /// Starts a new search number (clearing the marks when the number wraps) with no target.
    private mutating func startSearch() {
        pendingCount = 0
        generation &+= 1
        if generation == 0 {
            for slot in settledIn.indices {
                settledIn[slot] = 0
                pendingIn[slot] = 0
            }
            generation = 1
        }
    }

    /// Sizes the per-slot state to the slots the topology cache has handed out.
    private mutating func growState() {
        let missing = topology.slotCount - settledIn.count
        guard missing > 0 else { return }
        settledDistance.append(contentsOf: repeatElement(0, count: missing))
        settledIn.append(contentsOf: repeatElement(0, count: missing))
        pendingIn.append(contentsOf: repeatElement(0, count: missing))
    }

    private mutating func search(from source: MatchCandidate, limit: Double, in network: any RoadNetwork) throws {
        queue.removeAll()
        let start = topology.slot(for: source.link)
        try topology.load(start, in: network)
        growState()
        let toExit = max(0, source.length - source.offset)
        for next in topology.successors(start) {
            queue.push(toExit + (next == source.link.reversed ? uTurnPenalty : 0), next)
        }
        while let (distance, link) = queue.pop() {
            if distance > limit { break }
            // Every queued link is a successor of a loaded link, so it has a slot.
            let slot = topology.slot(for: link)
            if settledIn[slot] == generation { continue }
            settledIn[slot] = generation
            settledDistance[slot] = distance
            if pendingIn[slot] == generation {
                pendingIn[slot] = 0
                pendingCount -= 1
                if pendingCount == 0 { break }
            }
            try topology.load(slot, in: network)
            growState()
            let atExit = distance + topology.length(slot)
            if atExit > limit { continue }
            let successors = topology.successors(slot), slots = topology.successorSlots(slot)
            for (next, nextSlot) in zip(successors, slots) where settledIn[nextSlot] != generation {
                queue.push(atExit + (next == link.reversed ? uTurnPenalty : 0), next)
            }
        }
    }
}

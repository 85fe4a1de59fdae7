import RoadMap

/// Shortest legal driving distances from one candidate to many: a Dijkstra search over directed
/// links (oneway and turn restrictions respected through `successors(of:)`), bounded in distance.
///
/// The search runs from the exit of the candidate's link, and what it reached is kept for that
/// link: at a fix, most of the previous fix's candidates sit on links searched from at the fix
/// before (86 % of the searches on the sample drives), and most searches went to their bound
/// anyway (90 %: some candidate of the new fix is not reachable within it), so a search kept per
/// link saves nearly all of them. A candidate's distances are its own distance to the exit plus
/// what was reached from there; a longer reach continues the kept search from where it stopped.
/// The distances are the same as one search per candidate gives (`adasis match` and the replayed
/// frames of every drive byte-identical), at a fifth fewer instructions in matching.
///
/// Per-link state lives in arrays indexed by the topology cache's slots, marked with the number
/// of the search that wrote it, so a search neither hashes per visited link nor clears its state.
struct RouteDistanceSearch {
    private var topology = LinkTopologyCache()
    /// The current search's number; a slot's state below belongs to it when marked with it.
    private var generation: UInt32 = 0
    /// By slot: `generation` once the search settled the link.
    private var settledIn: [UInt32] = []
    /// By slot: the distance of a link a search settled, while ``sortBySlot(_:)`` orders them.
    private var distanceBySlot: [Double] = []
    /// One bit per slot, set while ``sortBySlot(_:)`` orders the links a search settled (clear
    /// between sorts).
    private var slotBits: [UInt64] = []
    /// By source slot: the links reached from that link's exit (slots are the topology cache's,
    /// so these go when it starts over).
    private var reachedFromExit: [Int: ReachedLinks] = [:]
    /// The links a search settled, in settling order (storage kept from one search to the next).
    private var settledScratch: [(slot: Int, distance: Double)] = []

    /// What a search from one link's exit has reached: every link whose entry lies within
    /// `radius` metres, by slot in ascending order with its entry distance, and the search's queue
    /// where it stopped, to go on from when a longer reach is asked.
    private struct ReachedLinks {
        var radius: Double
        var slots: [Int] = []
        var distances: [Double] = []
        var frontier = DirectedLinkQueue()

        /// The entry distance of the link in `slot`, `nil` when it was not reached.
        func distance(to slot: Int) -> Double? {
            var low = 0, high = slots.count
            while low < high {
                let middle = (low + high) / 2
                if slots[middle] < slot { low = middle + 1 } else { high = middle }
            }
            return low < slots.count && slots[low] == slot ? distances[low] : nil
        }

        /// Adds links a continued search settled (slots not held yet, ascending), keeping the slots
        /// ascending: the lists grow by their count, and the two merge from the back, in place.
        mutating func merge(sorted settled: [(slot: Int, distance: Double)]) {
            guard !settled.isEmpty else { return }
            let held = slots.count, added = settled.count
            slots.append(contentsOf: repeatElement(0, count: added))
            distances.append(contentsOf: repeatElement(0, count: added))
            settled.withUnsafeBufferPointer { new in
                slots.withUnsafeMutableBufferPointer { slots in
                    distances.withUnsafeMutableBufferPointer { distances in
                        var old = held - 1, next = added - 1, to = held + added - 1
                        while next >= 0 {
                            if old >= 0, slots[old] > new[next].slot {
                                slots[to] = slots[old]
                                distances[to] = distances[old]
                                old -= 1
                            } else {
                                slots[to] = new[next].slot
                                distances[to] = new[next].distance
                                next -= 1
                            }
                            to -= 1
                        }
                    }
                }
            }
        }
    }

    /// Distance a vehicle may move backwards on the same link and still count as staying there
    /// (GNSS noise on a stopped or slow vehicle), metres.
    var backwardTolerance: Double = 15
    /// Extra distance charged for a U-turn at a node, metres.
    var uTurnPenalty: Double = 50 {
        didSet { if uTurnPenalty != oldValue { reachedFromExit.removeAll() } }
    }
    /// How much further than asked a search from a link's exit goes, metres, so that the next
    /// fix (its candidate nearer the exit, or the bound grown with speed) usually finds it far
    /// enough; a longer reach asked later continues the search kept.
    static let reachMargin = 30.0
    /// Links whose reach is kept before all are forgotten: a few fixes' worth of candidates, each
    /// holding the links within its bound (a few hundred in the city at 130 m). On the sample
    /// drives 64 cost 2.9 % more instructions in matching than 128, and 256 saved 0.5 %.
    static let reachedCapacity = 128

    /// Writes into `distances[j]` the route distance from `source` to `targets[j]`, or `.infinity`
    /// when it is not reachable within `limit` metres.
    mutating func distances(
        from source: MatchCandidate, to targets: [MatchCandidate], limit: Double,
        in network: any RoadNetwork, into distances: inout [Double]
    ) throws {
        distances.removeAll(keepingCapacity: true)
        if topology.startOverIfFull() { reachedFromExit.removeAll(keepingCapacity: true) }
        var elsewhere = false
        for target in targets {
            let along = target.offset - source.offset
            if target.link == source.link, along >= -backwardTolerance {
                distances.append(abs(along))
            } else {
                distances.append(.infinity)
                elsewhere = true
            }
        }
        let toExit = max(0, source.length - source.offset)
        guard elsewhere, toExit <= limit else { return }
        let start = topology.slot(for: source.link)
        let reached = try reached(from: start, link: source.link, within: limit - toExit, in: network)
        for (j, target) in targets.enumerated() where distances[j] == .infinity {
            guard let slot = topology.existingSlot(for: target.link), let distance = reached.distance(to: slot) else {
                continue
            }
            let entry = toExit + distance
            if entry <= limit, entry + target.offset <= limit { distances[j] = entry + target.offset }
        }
    }

    /// The directed links a vehicle may enter at the exit of `link` (from the topology cache).
    mutating func successors(of link: DirectedLink, in network: any RoadNetwork) throws -> [DirectedLink] {
        try topology.entry(for: link, in: network).successors
    }

    /// Forgets cached topology and reach (after the network changed, or on reset).
    mutating func removeAll() {
        topology.removeAll()
        reachedFromExit.removeAll()
    }

    /// Orders the links a search settled (distinct slots, each below the topology's slot count) by
    /// slot: a bit per slot set, then read word by word, so the cost follows the links and the
    /// words they span rather than a comparison sort's (a continued search settles dozens of
    /// links, and sorting them took a twentieth of a dense-grid fix's matching).
    private mutating func sortBySlot(_ settled: inout [(slot: Int, distance: Double)]) {
        guard settled.count > 1 else { return }
        var lowWord = Int.max, highWord = 0
        for (slot, distance) in settled {
            let word = slot >> 6
            slotBits[word] |= 1 &<< UInt64(slot & 63)
            distanceBySlot[slot] = distance
            lowWord = min(lowWord, word)
            highWord = max(highWord, word)
        }
        var next = 0
        for word in lowWord...highWord {
            var bits = slotBits[word]
            slotBits[word] = 0
            while bits != 0 {
                let slot = word << 6 | bits.trailingZeroBitCount
                settled[next] = (slot, distanceBySlot[slot])
                next += 1
                bits &= bits &- 1
            }
        }
    }

    /// Starts a new search number (clearing the marks when the number wraps).
    private mutating func startSearch() {
        generation &+= 1
        if generation == 0 {
            for slot in settledIn.indices { settledIn[slot] = 0 }
            generation = 1
        }
    }

    /// Sizes the per-slot state to the slots the topology cache has handed out.
    private mutating func growState() {
        let missing = topology.slotCount - settledIn.count
        guard missing > 0 else { return }
        settledIn.append(contentsOf: repeatElement(0, count: missing))
        distanceBySlot.append(contentsOf: repeatElement(0, count: missing))
        let words = (topology.slotCount + 63) / 64
        if words > slotBits.count { slotBits.append(contentsOf: repeatElement(0, count: words - slotBits.count)) }
    }

    /// The links within `reach` metres of the exit of `link` (in `start`): those kept for it when
    /// they go that far, else the kept search continued (or a new one begun) to ``reachMargin``
    /// beyond `reach`, and kept.
    private mutating func reached(
        from start: Int, link: DirectedLink, within reach: Double, in network: any RoadNetwork
    ) throws -> ReachedLinks {
        if let known = reachedFromExit[start], known.radius >= reach { return known }
        startSearch()
        growState()
        var reached: ReachedLinks
        if let known = reachedFromExit.removeValue(forKey: start) {
            reached = known
            for slot in reached.slots { settledIn[slot] = generation }
        } else {
            if reachedFromExit.count >= Self.reachedCapacity { reachedFromExit.removeAll(keepingCapacity: true) }
            reached = ReachedLinks(radius: 0)
            try topology.load(start, in: network)
            growState()
            let uTurn = link.reversed, penalty = uTurnPenalty
            topology.forEachSuccessor(of: start) { next, nextSlot in
                reached.frontier.push(next == uTurn ? penalty : 0, next, tag: Int32(nextSlot))
            }
        }
        reached.radius = reach + Self.reachMargin
        var settled = settledScratch
        settledScratch = []
        defer {
            settled.removeAll(keepingCapacity: true)
            settledScratch = settled
        }
        while reached.frontier.topKey <= reached.radius, let (distance, next, tag) = reached.frontier.popTagged() {
            // Every queued link is a successor of a loaded link, queued with its slot as the tag
            // (slots outlive the searches kept: the cache starting over forgets them all).
            let slot = Int(tag)
            if settledIn[slot] == generation { continue }
            settledIn[slot] = generation
            settled.append((slot, distance))
            try topology.load(slot, in: network)
            growState()
            // Successors beyond the radius stay queued: the frontier a longer reach goes on from.
            let atExit = distance + topology.length(slot)
            let reversed = next.reversed
            topology.forEachSuccessor(of: slot) { following, followingSlot in
                guard settledIn[followingSlot] != generation else { return }
                reached.frontier.push(
                    atExit + (following == reversed ? uTurnPenalty : 0), following, tag: Int32(followingSlot))
            }
        }
        sortBySlot(&settled)
        reached.merge(sorted: settled)
        reachedFromExit[start] = reached
        return reached
    }
}

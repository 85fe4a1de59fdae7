import RoadMap

/// The recomputation steps of ``HorizonEngine``: cutting behind, growing ahead, following a route.
extension HorizonEngine {
    /// Most links one extension of one path may add: a guard against degenerate (zero-length)
    /// loops in a map, far above what any look-ahead needs.
    static let maximumLinksPerExtension = 10_000

    /// Replaces the main path ahead of the vehicle's link so that it follows the new route (or
    /// the prediction when the route was cleared).
    func applyRouteChange() {
        routeChanged = false
        guard let mainID = tree.mainPathID, var main = tree.paths[mainID] else { return }
        let cut = main.links[vehicleLinkIndex].endOffset
        let dropped = Array(main.links[(vehicleLinkIndex + 1)...])
        main.links.removeLast(dropped.count)
        main.links[vehicleLinkIndex].routeIndex = route?.firstIndex(of: main.links[vehicleLinkIndex].link)
        tree.paths[mainID] = main
        // The junction at the cut gets another continuation: its side paths are due again.
        sidePathsAdded[mainID] = nil
        if !dropped.isEmpty { events.append(.linksRemoved(path: mainID, links: dropped)) }
        for child in tree.children(of: mainID) where (child.branchOffset ?? 0) >= cut {
            removeSubtree(child.id)
        }
    }

    /// Drops main-path links that ended more than the trailing length behind the vehicle, and the
    /// side paths branching off more than the side paths' trailing length behind it.
    func trimBehindVehicle() {
        guard let mainID = tree.mainPathID, var main = tree.paths[mainID], let vehicleOffset else { return }
        let limit = vehicleOffset - configuration.trailingLength
        let sidePathLimit =
            vehicleOffset - min(configuration.sidePathTrailingLength, configuration.trailingLength)
        let count = main.links.prefix(vehicleLinkIndex).prefix { $0.endOffset < limit }.count
        if count > 0 {
            let dropped = Array(main.links.prefix(count))
            main.links.removeFirst(count)
            vehicleLinkIndex -= count
            tree.paths[mainID] = main
            if configuration.branchModel.offersUTurns { prependDrivenBefore(dropped) }
            events.append(.linksRemoved(path: mainID, links: dropped))
        }
        for child in tree.children(of: mainID) where (child.branchOffset ?? 0) < sidePathLimit {
            removeSubtree(child.id)
        }
    }

    /// Removes `root` and every path below it.
    func removeSubtree(_ root: PathID) {
        for id in tree.subtree(of: root) {
            tree.paths[id] = nil
            events.append(.pathRemoved(id))
        }
    }

    /// Extends every path to its look-ahead and adds side paths at junctions within the look-ahead
    /// of the next level, parents before children.
    ///
    /// Distances are measured along the tree from the vehicle: a side path starts at the distance
    /// of its branch junction. Side paths whose junction the vehicle has passed are neither
    /// extended nor given children.
    func grow() throws {
        guard let mainID = tree.mainPathID, let vehicleOffset else { return }
        // Entries of paths no longer in the tree, dropped once they outnumber the tree.
        if sidePathsAdded.count > 2 * tree.paths.count + 16 {
            sidePathsAdded = sidePathsAdded.filter { tree.paths.keys.contains($0.key) }
        }
        if uTurnWaysBack.count > tree.paths.count + 16 {
            uTurnWaysBack = uTurnWaysBack.filter { tree.paths.keys.contains($0.key) }
        }
        // Each queued path with its start distance.
        var queue = [(id: mainID, start: -vehicleOffset)]
        var index = 0
        while index < queue.count {
            let (id, start) = queue[index]
            index += 1
            // Every queued path is in the tree (queued from it). No copy of the path is kept
            // meanwhile, so that extending it appends in place.
            guard let (level, isUTurn) = tree.paths.withPath(id, { ($0.level, $0.isOfferedUTurn) }) else { continue }
            // An offered U-turn (isUTurn) is a leaf: extended, never branched.
            // Paths of the one-link level (below maximumLevel) are neither extended nor branched.
            if start.isFinite, level <= configuration.maximumLevel {
                if level == 0 {
                    try growMainPath(id, start: start)
                } else {
                    let added = try extend(id, to: configuration.growthReach(level: level) - start)
                    if !added.isEmpty { events.append(.linksAdded(path: id, links: added)) }
                }
                if !isUTurn, level < configuration.maximumLevel || configuration.addsOneLinkLevel {
                    try addSidePaths(to: id, startDistance: start, reach: configuration.growthReach(level: level + 1))
                }
            }
            for child in tree.paths.childIDs(of: id) {
                let branchOffset = tree.paths.withPath(child) { $0.branchOffset ?? 0 } ?? 0
                let passed = id == mainID && branchOffset < vehicleOffset
                queue.append((child, passed ? .infinity : start + branchOffset))
            }
        }
    }

    /// Extends the main path `id` (starting `start` metres from the vehicle) as far as this update
    /// may, and notes whether it is still catching up: to its look-ahead, but no more than
    /// ``HorizonConfiguration/mainPathGrowthPerUpdate`` beyond its end, or beyond the side paths'
    /// look-ahead if it ends short of that.
    private func growMainPath(_ id: PathID, start: Double) throws {
        let lookAhead = configuration.lookAhead(level: 0) - start
        var target = lookAhead
        let growth = configuration.mainPathGrowthPerUpdate
        if growth.isFinite, let end = tree.paths.withPath(id, { $0.endOffset }) {
            target = min(lookAhead, max(end, configuration.lookAhead(level: 1) - start) + growth)
        }
        let added = try extend(id, to: target)
        if !added.isEmpty { events.append(.linksAdded(path: id, links: added)) }
        // Still short of its look-ahead only because of the growth limit (not at a dead end or the
        // map's edge): the next update grows it on.
        let end = tree.paths.withPath(id) { $0.endOffset } ?? lookAhead
        mainPathCatchingUp = target < lookAhead && end >= target
    }

    /// Between two recomputations (``HorizonConfiguration/minimumUpdateInterval``,
    /// ``HorizonConfiguration/minimumUpdateDistance``), a main path catching up grows on alone: its
    /// links past the side paths' look-ahead get no side paths, so nothing else is due.
    func catchUpMainPath() throws {
        guard let mainID = tree.mainPathID, let vehicleOffset else { return }
        try growMainPath(mainID, start: -vehicleOffset)
    }

    /// Adds a side path for every legal continuation not taken by path `id` at its junctions that
    /// lie `0..<reach` metres ahead of the vehicle.
    private func addSidePaths(to id: PathID, startDistance: Double, reach: Double) throws {
        guard let path = tree.paths[id] else { return }
        // The junctions behind the vehicle (the main path keeps its trailing links), and those
        // whose side paths were added at an earlier growth, are skipped by a binary search on the
        // links' end offsets, without visiting them.
        let added = sidePathsAdded[id].flatMap { $0.level == path.level ? $0.throughOffset : nil } ?? -.infinity
        var lower = 0
        var upper = max(0, path.links.count - 1)
        while lower < upper {
            let middle = (lower + upper) / 2
            let endOffset = path.links[middle].endOffset
            if startDistance + endOffset < 0 || endOffset <= added { lower = middle + 1 } else { upper = middle }
        }
        // The side paths already there, read only when a junction is due.
        lazy var existing = Set(
            tree.paths.childIDs(of: id).compactMap { child in
                tree.paths.withPath(child) { child in
                    child.links.first.flatMap { first in child.branchOffset.map { SideKey($0, first.link) } }
                } ?? nil
            })
        var through = added
        defer { if through > added { sidePathsAdded[id] = (path.level, through) } }
        for index in lower..<max(lower, path.links.count - 1) {
            let endOffset = path.links[index].endOffset
            let distance = startDistance + endOffset
            if distance >= reach { break }
            let taken = path.links[index + 1].link
            for branch in path.links[index].exitBranches where branch.link != taken {
                if branch.isOfferedUTurn, path.level > 0, !configuration.uTurnsOffSidePaths { continue }
                let key = SideKey(endOffset, branch.link)
                guard !existing.contains(key) else { continue }
                existing.insert(key)
                let sideID = takePathID()
                let first = try pathLink(branch.link, startOffset: 0, routeIndex: nil)
                tree.paths[sideID] = HorizonPath(
                    id: sideID, parent: id, branchOffset: endOffset,
                    level: path.level + 1, probability: branch.probability,
                    turnAngle: branch.turnAngle, links: [first])
                if branch.isOfferedUTurn {
                    uTurnWaysBack[sideID] = wayBack(from: id, throughLinkIndex: index, length: reach).map(\.link)
                }
                events.append(.pathAdded(sideID))
                events.append(.linksAdded(path: sideID, links: [first]))
            }
            through = endOffset
        }
    }

    /// The link from which `path`, with `added` appended, entered the roundabout its last link is
    /// on: the last link before the final run of roundabout links, `nil` when the path starts on
    /// the roundabout.
    static func roundaboutEntry(of path: HorizonPath, followedBy added: [PathLink]) -> DirectedLink? {
        let isEntry = { (link: PathLink) in link.attributes.formOfWay != .roundabout }
        return (added.last(where: isEntry) ?? path.links.last(where: isEntry))?.link
    }

    private struct SideKey: Hashable {
        var offset: Double
        var link: DirectedLink
        init(_ offset: Double, _ link: DirectedLink) { self.offset = offset; self.link = link }

        /// Offset and link in one word (0 and −0 alike, as they are equal).
        private var folded: UInt64 {
            UInt64(bitPattern: Int64(link._rawHashValue(seed: 0))) ^ (offset == 0 ? 0 : offset).bitPattern
        }
        /// Hashes as its folded word does.
        func hash(into hasher: inout Hasher) { hasher.combine(folded) }
        /// The folded word's ``IdentifierHash``: every junction ahead is looked up at every growth.
        func _rawHashValue(seed: Int) -> Int { IdentifierHash.of(folded, seed: seed) }
    }

    /// Appends links to path `id` until it reaches `target` (an offset on the path) or cannot go
    /// on. The main path follows the route while its last link is on it, then the most probable
    /// continuation (or the client's choice at a ``MostProbablePathSplit``); side paths follow the
    /// most probable continuation, an offered U-turn first its way back (`UTurnWayBack.swift`).
    private func extend(_ id: PathID, to target: Double) throws -> [PathLink] {
        let added: [PathLink]
        do {
            // The copy of the path ends with this scope: the table's is then the only one, and the
            // links are appended to it in place.
            guard let path = tree.paths[id], path.endOffset < target else { return [] }
            added = try continuation(
                of: path, to: target, isMain: id == tree.mainPathID,
                wayBack: path.isOfferedUTurn ? uTurnWaysBack[id] : nil)
        }
        if !added.isEmpty { tree.paths.append(added, toPath: id) }
        return added
    }

    /// The links that follow `path` up to `target`, as ``extend(_:to:)`` appends them; `wayBack`
    /// is an offered U-turn's (``wayBackContinuation(after:index:wayBack:)``).
    private func continuation(
        of path: HorizonPath, to target: Double, isMain: Bool, wayBack: [DirectedLink]?
    ) throws -> [PathLink] {
        var added: [PathLink] = []
        var endOffset = path.endOffset
        // The path's last link so far, held rather than copied out of a list at every step.
        var lastLink = path.links.last
        while endOffset < target, added.count < HorizonEngine.maximumLinksPerExtension, let last = lastLink {
            var next: DirectedLink?
            var routeIndex: Int?
            if isMain, let route, let current = last.routeIndex, current + 1 < route.count {
                let planned = route[current + 1]
                let legal =
                    try last.exitBranches.contains { $0.link == planned }
                    || network.successors(of: last.link).contains(planned)
                if legal {
                    next = planned
                    routeIndex = current + 1
                }
            }
            // A client's choice (validated legal by choose(_:at:)).
            if next == nil, isMain, let chosen = chosenContinuations[last.link],
                last.exitBranches.contains(where: { $0.link == chosen })
            {
                next = chosen
            }
            if next == nil, let wayBack {
                next = try wayBackContinuation(after: last, index: path.links.count + added.count, wayBack: wayBack)
            }
            if next == nil, last.attributes.formOfWay == .roundabout,
                let entry = Self.roundaboutEntry(of: path, followedBy: added)
            {
                next = try configuration.branchModel.roundaboutContinuation(
                    entry: entry, current: last.link, in: network)
            }
            // Zero-probability paths (forbidden turns, kept on request) are never followed.
            if next == nil { next = last.exitBranches.first(where: { $0.probability > 0 })?.link }
            guard let next else { break }
            let link = try pathLink(next, startOffset: endOffset, routeIndex: routeIndex)
            endOffset = link.endOffset
            added.append(link)
            lastLink = link
        }
        return added
    }
}

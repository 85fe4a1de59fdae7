import ADASISv2
import Horizon
import RoadMap

extension ADASISProvider {
    /// Releases the indices of paths the tree no longer has and forgets their content, including
    /// what still waits for bus budget.
    func retireVanishedPaths(at time: Double) {
        // Paths vanish only with a new tree; between trees this is a no-op, so skip the scan.
        guard treeChangedSinceRetire else { return }
        treeChangedSinceRetire = false
        // Most new trees retire nothing: find the vanished paths first (without copying any
        // path out of the table), then release them in identifier order.
        let vanished = indexOfPath.indices.filter { !tree.paths.keys.contains($0.key) }
        // Their queued frames in one pass over the queues, not one pass per path.
        scheduler.discardFrames(ofPaths: PathIndexSet(vanished.values))
        for (id, index) in vanished.sorted(by: { $0.key < $1.key }) {
            allocator.release(index, at: time)
            indexOfPath[id] = nil
            sentUpTo[id] = nil
            announcedPaths.remove(id)
            probabilityOfPath[id] = nil
            ledger.removePath(index)
            dirtyFrom[id] = nil
            starvedJunctions[id] = nil
            objectsChanged.remove(id)
        }
    }

    /// Sends what is new, changed or due for retransmission on every path.
    func sendHorizon(vehicle: Double, time: Double) {
        guard let main = mainPath else { return }
        let mainID = main.id
        if indexOfPath[mainID] == nil {
            // Not an index the receiver still holds: it would keep that path's old content. Should
            // every free index be held (the model never forgets a path a receiver purged behind the
            // vehicle), any free one, rather than no horizon until the receiver re-roots.
            guard
                let index = allocator.allocate(at: time, excluding: receiverTree.held, receiverHolds: receiverTree.held)
                    ?? allocator.allocate(at: time)
            else { return }
            indexOfPath[mainID] = index
            probabilityOfPath[mainID] = main.probability
        }
        let reviving = revivalDue(at: time)
        // Between trees most ticks have nothing to walk for: every side path rests and the send
        // radius has not reached past what the main path sent. The walk would queue nothing then,
        // so it is skipped (on three sample drives 793 of 7 733 ticks walk; `SettledTreeTests`).
        let mainSent = sentUpTo[mainID] ?? -.infinity
        let mainFrontier =
            Self.mainPathFrontier(main, reach: vehicle + configuration.sendRadius(level: 0), sent: mainSent)
        if reviving || mainFrontier > mainSent || !visitOrder.isSettled || walksTreeEveryTick {
            treeWalks += 1
            walkTree(vehicle: vehicle, time: time, reviving: reviving, mainFrontier: mainFrontier)
        }
        if time >= nextRetransmission {
            retransmitNearby(main: main, vehicle: vehicle)
            nextRetransmission = time + configuration.retransmissionInterval - 1e-9
        }
        let purgeBefore = Int((vehicle - configuration.trailingLength - 50).rounded(.down))
        if let mainIndex = indexOfPath[mainID] { ledger.purge(mainIndex, before: purgeBefore) }
    }

    /// Visits the tree's paths breadth first and queues what is new, changed or starved on each;
    /// `mainFrontier` is the main path's (``mainPathFrontier(_:reach:sent:)``, as the tick worked it
    /// out: the walk visits the main path first, before anything it sends moves it).
    private func walkTree(vehicle: Double, time: Double, reviving: Bool, mainFrontier: Double) {
        revivalAdmitted = reviving ? revivalCandidates(vehicle: vehicle, time: time) : nil
        defer { revivalAdmitted = nil }
        // Breadth first, so that a child's index exists (given out by its parent's STUB) first; a
        // path is visited when its parent was and it has an index. A side path sent up to its
        // frontier rests until the next tree: nothing about it changes in between.
        var visited = [Bool](repeating: false, count: visitOrder.entries.count)
        // Distance along the tree from the vehicle to offset 0 of each visited path.
        var origin = [Double](repeating: 0, count: visitOrder.entries.count)
        // Content is gathered in visit order (child indices are given out in that order) and
        // queued once the room for it is known.
        var changes: [(position: Int, atoms: [ContentAtom], lower: Double, upper: Double)] = []
        var pending: [PendingContent] = []
        for position in visitOrder.entries.indices {
            let entry = visitOrder.entries[position]
            if let parent = entry.parent, !visited[parent] { continue }
            origin[position] = entry.parent.map { origin[$0] + entry.branchOffset } ?? -vehicle
            if entry.isResting {
                visited[position] = true
                continue
            }
            // Read in place: most visited paths have nothing to send, and are not copied out.
            guard let index = indexOfPath[entry.id],
                let (level, startOffset, endOffset) = tree.paths.withPath(
                    entry.id, { ($0.level, $0.startOffset, $0.endOffset) })
            else { continue }
            visited[position] = true
            let radius = configuration.sendRadius(level: level)
            let sent = sentUpTo[entry.id] ?? -.infinity
            let frontier = level == 0 ? mainFrontier : min(radius, endOffset - 0.5)
            var changedFrom: Double?
            if let from = dirtyFrom.removeValue(forKey: entry.id), sent.isFinite, from < sent {
                changedFrom = max(from, startOffset - 0.5, level == 0 ? vehicle - configuration.trailingLength : -1)
            }
            // Starved junctions still ahead (``revivalDue(at:)``): their STUBs again. A side path
            // the vehicle passed needs no index now, but keeps its starved junctions: when the
            // matcher finds the turn late, it becomes the main path with those junctions ahead
            // (kruununhaka, 134–140 s: without them its side paths stayed stub-only for 30 s).
            var revived: [Double] = []
            if reviving, let junctions = starvedJunctions.removeValue(forKey: entry.id) {
                if Self.isPassed(entry, vehicle: vehicle) {
                    starvedJunctions[entry.id] = junctions
                } else {
                    revived = junctions.sorted().filter {
                        Self.isRevivable($0, on: entry, sent: sent, vehicle: vehicle)
                    }
                }
            }
            // A side path sent up to its frontier rests (its changes, if any, go out below).
            if frontier <= sent, level > 0 { visitOrder.rest(position) }
            guard changedFrom != nil || !revived.isEmpty || frontier > sent else { continue }
            // Copied out only now: most visited paths have nothing to send. Held by the tree (read
            // above); the walk does not change the tree.
            let path = tree.paths[entry.id]!
            let content = pathContent(path, at: position, index: index, time: time)
            if let lower = changedFrom {
                changes.append((position, content.atoms(lower: lower, upper: sent), lower, sent))
            }
            for junction in revived {
                changes.append(
                    (
                        position, content.atoms(lower: junction - 0.5, upper: junction + 0.5), junction - 0.5,
                        junction + 0.5
                    ))
            }
            if frontier > sent {
                pending.append(
                    PendingContent(
                        position: position, path: path, atoms: content.atoms(lower: sent, upper: frontier),
                        frontier: frontier, origin: origin[position]))
            }
        }
        queueNearestFirst(pending, after: changes, vehicle: vehicle)
        let entries = visitOrder.entries
        if !entries.indices.contains(where: { visited[$0] && entries[$0].level > 0 && !entries[$0].isResting }) {
            visitOrder.settle()
        }
    }

    /// How far past the send radius the main path's content may go at once, metres.
    static let mainPathContentStep = 50.0

    /// The offset up to which `path`, the main path, has content due when `sent` went out and the
    /// send radius reaches `reach` (the vehicle's offset plus the radius): nothing while the radius
    /// stays within what was sent; once it passes, the rest of the link it reaches into, at most
    /// ``mainPathContentStep`` beyond the radius. So the content goes out a link at a time rather
    /// than a metre or two at every tick (its SEGMENTs and STUBs at the same ticks as before, the
    /// spots within a link when the radius enters the link), never beyond the path's end.
    static func mainPathFrontier(_ path: HorizonPath, reach: Double, sent: Double) -> Double {
        let end = path.endOffset - 0.5
        guard reach > sent else { return min(sent, end) }
        guard let index = path.linkIndex(at: reach) else { return min(reach, end) }
        return min(max(reach, min(path.links[index].endOffset - 0.5, reach + mainPathContentStep)), end)
    }

    /// New content of one path, from what was sent up to its frontier.
    struct PendingContent {
        var position: Int
        var path: HorizonPath
        var atoms: [ContentAtom]
        var frontier: Double
        /// Distance along the tree from the vehicle to the path's offset 0.
        var origin: Double
    }

    /// Queues, path by path in visit order, the changed content of `changes` and the new content
    /// of `pending`. Back-pressure: new content never fills more than the queue holds; when it
    /// cannot hold everything, the new content nearest the vehicle (along the tree) goes first and
    /// the rest waits in the tree, each path cut at an offset so that what it sent stays a prefix.
    private func queueNearestFirst(
        _ pending: [PendingContent],
        after changes: [(position: Int, atoms: [ContentAtom], lower: Double, upper: Double)],
        vehicle: Double
    ) {
        let room =
            configuration.maximumQueuedFrames - scheduler.queuedCount - changes.reduce(0) { $0 + $1.atoms.count }
        var limit = Double.infinity
        if pending.reduce(0, { $0 + $1.atoms.count }) > room {
            var distances = pending.flatMap { entry in entry.atoms.map { entry.origin + Double($0.key.offset) } }
            distances.sort()
            limit = room > 0 ? distances[room] : -.infinity
        }
        var nextChange = changes.startIndex
        func sendChangesOfPaths(upTo position: Int) {
            while nextChange < changes.endIndex, changes[nextChange].position <= position {
                let change = changes[nextChange]
                let placed = visitOrder.entries[change.position]
                if let path = tree.paths[placed.id] {
                    self.sendChanges(
                        change.atoms, path: path, rootOffset: placed.rootOffset, vehicle: vehicle,
                        lower: change.lower, upper: change.upper)
                }
                nextChange += 1
            }
        }
        for entry in pending {
            sendChangesOfPaths(upTo: entry.position)
            let path = entry.path
            var atoms = entry.atoms
            var reached = entry.frontier
            if let cut = atoms.first(where: { entry.origin + Double($0.key.offset) >= limit })?.key.offset {
                atoms.removeAll { $0.key.offset >= cut }
                reached = Double(cut) - 0.5
            }
            for atom in atoms { ledger[atom.key] = atom.message }
            enqueue(
                atoms, path: path, rootOffset: visitOrder.entries[entry.position].rootOffset, vehicle: vehicle,
                retransmission: false, update: false)
            let sent = sentUpTo[path.id] ?? -.infinity
            if reached > sent { sentUpTo[path.id] = reached }
            if path.level > 0, (sentUpTo[path.id] ?? -.infinity) >= entry.frontier {
                visitOrder.rest(entry.position)
            }
        }
        sendChangesOfPaths(upTo: .max)
    }

    /// The content of `path`, at `position` in ``visitOrder``.
    private func pathContent(_ path: HorizonPath, at position: Int, index: UInt8, time: Double)
        -> PathContent<ProviderLinkLookup>
    {
        PathContent(
            path: path, pathIndex: index, sends: contentSelection,
            units: configuration.metaData.speedUnits, routeActive: routeActive,
            objectTypes: configuration.roadObjectTypes,
            probability: probabilityOfPath[path.id] ?? path.probability,
            trafficSpeeds: trafficSpeeds,
            lookup: ProviderLinkLookup(provider: self, position: position, time: time))
    }

    /// The provider's roads, and the child paths of the path at `position` in ``visitOrder``, their
    /// indices given out at `time` (``childIndex(ofPathAt:offset:entering:time:)``).
    struct ProviderLinkLookup: LinkLookup {
        let provider: ADASISProvider
        let position: Int
        let time: Double

        func road(_ id: LinkID) -> RoadLink? { provider.roadLink(id) }

        func childIndex(at offset: Double, entering link: DirectedLink) -> UInt8? {
            provider.childIndex(ofPathAt: position, offset: offset, entering: link, time: time)
        }
    }

    /// The index of the child path of the path at `position` in ``visitOrder`` that enters `link`
    /// at `offset`, allocated when its STUB is first sent; `nil` (a stub-only STUB) when there is
    /// no such path, it lies beyond the configured levels, or every index is in use.
    func childIndex(ofPathAt position: Int, offset: Double, entering link: DirectedLink, time: Double) -> UInt8? {
        guard let child = visitOrder.child(of: position, at: offset, entering: link) else { return nil }
        guard configuration.sends(level: child.level) else { return nil }
        if let index = indexOfPath[child.id] { return index }
        // Sub-paths leave one index the receiver does not hold free for the next new main path (the
        // highest, so sub-paths keep the lowest), so that a reset never waits for indices to come
        // back from rest with no horizon meanwhile. A revival's tick gives them only to the paths
        // it chose (``revivalCandidates``); between revivals a starved junction whose STUB goes
        // again (a change in its range) stays stub-only, so that free indices go by the revival's
        // order, not to whichever starved junction is nearest.
        let held = receiverTree.held
        let parent = visitOrder.entries[position].id
        let waitsForRevival =
            revivalAdmitted == nil && starvedJunctions[parent]?.contains { abs($0 - offset) < 0.5 } == true
        let spare = allocator.lastFree(at: time, excluding: held, receiverHolds: held)
        // A path of probability 0 (an offered U-turn, a forbidden turn kept on request) leaves the
        // last free indices to paths a vehicle may take (``ProviderConfiguration``'s
        // `indicesKeptFromZeroProbabilityPaths`).
        let reserve = configuration.indicesKeptFromZeroProbabilityPaths
        guard child.probability > 0 || allocator.freeCount(at: time, receiverHolds: held) > reserve,
            revivalAdmitted?.contains(child.id) ?? !waitsForRevival,
            let index = allocator.allocate(at: time, excluding: spare.map { [$0] } ?? [], receiverHolds: held)
        else {
            counters.pathIndicesExhausted += 1
            starvedJunctions[parent, default: []].insert(offset)
            return nil
        }
        indexOfPath[child.id] = index
        probabilityOfPath[child.id] = child.probability
        return index
    }

    /// Content already sent that now differs goes again with Update = 1; content that appeared
    /// in the sent range goes as new; road-object marks sent in the range `lower…upper` that are
    /// gone are withdrawn (``withdrawal(of:)``).
    private func sendChanges(
        _ atoms: [ContentAtom], path: HorizonPath, rootOffset: Double?, vehicle: Double, lower: Double, upper: Double
    ) {
        var changed: [ContentAtom] = []
        if objectsChanged.remove(path.id) != nil, let index = indexOfPath[path.id] {
            let present = Set(atoms.map(\.key))
            for held in ledger.atoms(index) where !present.contains(held.key) {
                let offset = Double(held.key.offset)
                guard offset > lower, offset <= upper, let withdrawal = Self.withdrawal(of: held) else { continue }
                ledger[held.key] = nil
                changed.append(withdrawal)
            }
        }
        var added: [ContentAtom] = []
        // A junction's STUBs are replaced as a set (receivers clear the set on the first Update):
        // the atoms come sorted by key, so each junction's STUBs are one run of them.
        var changedJunctions: [Range<Int>] = []
        var position = atoms.startIndex
        while position < atoms.endIndex {
            let atom = atoms[position]
            if case .stub = atom.key.kind {
                let start = position
                var differs = false
                while position < atoms.endIndex, case .stub = atoms[position].key.kind,
                    atoms[position].key.offset == atom.key.offset
                {
                    if !differs, ledger[atoms[position].key] != atoms[position].message { differs = true }
                    position += 1
                }
                if differs { changedJunctions.append(start..<position) }
                continue
            }
            position += 1
            // Written only when new or different: a write renews the path's revision, and with it
            // the side path's retransmission pack (``sidePathPack(_:)``).
            switch ledger[atom.key] {
            case nil: added.append(atom)
            case let held? where held != atom.message: changed.append(atom)
            default: continue
            }
            ledger[atom.key] = atom.message
        }
        for junction in changedJunctions {
            let first = atoms[junction.lowerBound].key
            ledger.removeStubs(first.pathIndex, at: first.offset)
            for atom in atoms[junction] { ledger[atom.key] = atom.message }
            changed += atoms[junction]
        }
        counters.updates += changed.count
        enqueue(changed, path: path, rootOffset: rootOffset, vehicle: vehicle, retransmission: false, update: true)
        enqueue(added, path: path, rootOffset: rootOffset, vehicle: vehicle, retransmission: false, update: false)
    }

    /// `rootOffset`: where the level-1 path `path` hangs from leaves the main path (its visit-order
    /// entry's), `nil` for the main path.
    private func enqueue(
        _ atoms: [ContentAtom], path: HorizonPath, rootOffset: Double?, vehicle: Double, retransmission: Bool,
        update: Bool
    ) {
        guard !atoms.isEmpty else { return }
        let near = configuration.nearHorizonDistance
        // A side path's frames are as near as the point where it leaves the main path.
        let sidePathDistance = path.level == 0 ? nil : rootOffset.map { $0 - vehicle }
        for message in AtomPacking.messages(atoms, retransmission: retransmission, update: update) {
            var distance = Double.infinity
            if let place = message.pathPlace {
                if path.level == 0 {
                    let absolute =
                        PathOffset.unwrapped(place.offset, near: Int(vehicle.rounded())).map(Double.init) ?? vehicle
                    distance = absolute - vehicle
                } else if let sidePathDistance {
                    distance = sidePathDistance
                }
            }
            scheduler.enqueue(message, priority: distance < near ? .nearHorizon : .farHorizon, counters: &counters)
        }
    }

    /// The "mini" horizon: the SEGMENT of the current link on path index 4, when it changes and
    /// at every retransmission interval.
    func sendCurrentLinkSegment(vehicle: Double?, time: Double) {
        guard let vehicle, let main = mainPath, let position = main.linkIndex(at: vehicle) else { return }
        let link = main.links[position]
        let content = PathContent(
            path: main, pathIndex: 4, sends: contentSelection,
            units: configuration.metaData.speedUnits, routeActive: routeActive,
            objectTypes: configuration.roadObjectTypes,
            probability: 1, lookup: NoLinkLookup())
        var segment = content.segmentMessage(link)
        segment.pathIndex = 4
        segment.offset = 0
        let due = time >= nextRetransmission
        guard segment != lastMiniSegment || due else { return }
        var sent = segment
        sent.isRetransmission = segment == lastMiniSegment
        scheduler.enqueue(.segment(sent), priority: .nearHorizon, counters: &counters)
        lastMiniSegment = segment
        if due { nextRetransmission = time + configuration.retransmissionInterval - 1e-9 }
    }
}

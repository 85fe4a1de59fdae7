import Horizon

/// Revivals: side paths announced stub-only for want of a path index get one once indices come
/// back (``ADASISProvider/starvedJunctions``).
extension ADASISProvider {
    /// Whether this tick builds the starved junctions again (``starvedJunctions``): at most once
    /// a second, when an index is free beside the one kept spare. Their changed STUB sets then go
    /// out with Update = 1 and give the side paths an index, and their content follows. Without
    /// this a side path announced stub-only kept no content for as long as it was in the tree,
    /// although indices came back seconds later (ullanlinna, stopped at a signal: 22 of 42 side
    /// paths on the bus for 30 s, four level-1 paths 51–182 m ahead among those without, and 33
    /// indices free). Wakes the starved junctions' paths so that the tick visits them.
    func revivalDue(at time: Double) -> Bool {
        guard !starvedJunctions.isEmpty, time >= nextRevival else { return false }
        nextRevival = time + 1 - 1e-9
        guard allocator.freeCount(at: time, receiverHolds: receiverTree.held) >= 2 else { return false }
        for id in starvedJunctions.keys { visitOrder.wake(id) }
        return true
    }

    /// Whether the vehicle has passed where side path `entry` leaves the main path (never for the
    /// main path itself): its starved junctions wait, it needs no index now.
    static func isPassed(_ entry: PathVisitOrder.Entry, vehicle: Double) -> Bool {
        entry.rootOffset.map { $0 <= vehicle } ?? false
    }

    /// Whether a revival sends the starved junction at `junction` on `entry`'s path again: its STUB
    /// went out (before `sent`, what the path sent), and on the main path it is still ahead.
    static func isRevivable(
        _ junction: Double, on entry: PathVisitOrder.Entry, sent: Double, vehicle: Double
    ) -> Bool {
        junction < sent && (entry.rootOffset != nil || junction > vehicle)
    }

    /// The side paths a revival gives the free indices to, when its starved junctions want more
    /// than are free: paths of probability 0 last, then the shallowest first, then the likeliest at
    /// its junction, then the nearest. Paths new at this fix compete too: those at a junction in
    /// the range their parent has sent (their STUB goes out with this tick's changes and wants an
    /// index of the same few), so that a revival does not give away to an unlikely starved path
    /// the index a likelier new one asks for a moment later (`RevivalOrderTests`).
    /// `nil` when every one of them fits.
    func revivalCandidates(vehicle: Double, time: Double) -> Set<PathID>? {
        let room = allocator.freeCount(at: time, receiverHolds: receiverTree.held) - 1
        var origin = [Double](repeating: -vehicle, count: visitOrder.entries.count)
        var waiting: [(level: Int, probability: Double, distance: Double, id: PathID)] = []
        for (position, entry) in visitOrder.entries.enumerated() {
            if let parent = entry.parent { origin[position] = origin[parent] + entry.branchOffset }
            guard indexOfPath[entry.id] != nil, !Self.isPassed(entry, vehicle: vehicle) else { continue }
            let sent = sentUpTo[entry.id] ?? -.infinity
            // Without an index at a junction already sent: starved there, or new at this fix.
            for child in visitOrder.entries[entry.children] where indexOfPath[child.id] == nil {
                guard configuration.sends(level: child.level),
                    Self.isRevivable(child.branchOffset, on: entry, sent: sent, vehicle: vehicle)
                else { continue }
                waiting.append((child.level, child.probability, origin[position] + child.branchOffset, child.id))
            }
        }
        guard waiting.count > room else { return nil }
        // Paths of probability 0 last, whatever their level.
        waiting.sort {
            ($0.probability > 0 ? 0 : 1, $0.level, -$0.probability, $0.distance, $0.id)
                < ($1.probability > 0 ? 0 : 1, $1.level, -$1.probability, $1.distance, $1.id)
        }
        return Set(waiting.prefix(max(0, room)).map(\.id))
    }
}

import ADASISv2
import Horizon

/// The retransmission round: content already sent, repeated for receivers that joined late or
/// restarted.
extension ADASISProvider {
    /// Repeats everything held from the trailing length behind to the retransmission distance
    /// ahead on the main path, with the sub-paths branching in that stretch, in the order a
    /// receiver that joined late (or was restarted) needs it: every round the main path from the
    /// vehicle ahead, then the rest — the side paths by how far ahead they leave the main path,
    /// the main path behind the vehicle and the side paths leaving it there, nearest first. Only
    /// what fits in the tick's remaining room goes out; the rest resumes next round where this
    /// one stopped (from its start once it has gone round), so it is repeated whole within a few
    /// rounds instead of its first frames every round. (Until stop 28 the list was in path-index order and the
    /// room took the first 25 or so frames: a receiver that joined late held nothing of the main
    /// path around the vehicle 10 s later when its index was higher than the side paths'.)
    func retransmitNearby(main: HorizonPath, vehicle: Double) {
        guard let mainIndex = indexOfPath[main.id] else { return }
        let lower = Int((vehicle - configuration.trailingLength).rounded(.down))
        let upper = Int((vehicle + configuration.retransmissionDistance).rounded(.up))
        let here = min(max(lower, Int(vehicle.rounded(.down))), upper)
        var ahead: [(root: Double, index: UInt8)] = []
        var behind: [(root: Double, index: UInt8)] = []
        ahead.reserveCapacity(visitOrder.entries.count)
        behind.reserveCapacity(visitOrder.entries.count)
        for entry in visitOrder.entries.dropFirst() {
            guard let index = indexOfPath[entry.id], let root = entry.rootOffset, Double(lower) <= root,
                root <= Double(upper)
            else { continue }
            if root >= Double(here) { ahead.append((root, index)) } else { behind.append((root, index)) }
        }
        ahead.sort { ($0.root, $0.index) < ($1.root, $1.index) }
        behind.sort { $0.root != $1.root ? $0.root > $1.root : $0.index < $1.index }
        let first = Self.retransmissionMessages(ledger.atoms(mainIndex, in: here...upper))
        // The rest as a list of lists: the side paths' come from the packs kept between rounds.
        var rest: [[ADASISMessage]] = []
        rest.reserveCapacity(ahead.count + behind.count + 1)
        for side in ahead { rest.append(sidePathPack(side.index)) }
        if lower < here { rest.append(Self.retransmissionMessages(ledger.atoms(mainIndex, in: lower...(here - 1)))) }
        for side in behind { rest.append(sidePathPack(side.index)) }
        var room = max(0, configuration.framesPerTick - scheduler.queuedCount)
        for message in first.prefix(room) {
            scheduler.enqueue(message, priority: .retransmission, counters: &counters)
        }
        counters.retransmissionsSkipped += max(0, first.count - room)
        room = max(0, room - first.count)
        let total = rest.reduce(0) { $0 + $1.count }
        guard total > 0 else { return }
        let start = retransmissionResume < total ? retransmissionResume : 0
        let sending = min(room, total)
        // Walk the lists from message `start`, wrapping round at the end.
        var list = 0, position = start
        while position >= rest[list].count {
            position -= rest[list].count
            list += 1
        }
        for _ in 0..<sending {
            scheduler.enqueue(rest[list][position], priority: .retransmission, counters: &counters)
            position += 1
            while position >= rest[list].count {
                position = 0
                list = (list + 1) % rest.count
            }
        }
        retransmissionResume = sending == total ? 0 : (start + sending) % total
        counters.retransmissionsSkipped += total - sending
    }

    /// Every atom of side path `index` packed for retransmission, packed again only when the
    /// path's atoms changed since the last round.
    func sidePathPack(_ index: UInt8) -> [ADASISMessage] {
        let revision = ledger.revision(index)
        if let kept = retransmissionPacks[index], kept.revision == revision { return kept.messages }
        let messages = Self.retransmissionMessages(ledger.atoms(index))
        retransmissionPacks[index] = (revision, messages)
        return messages
    }

    /// `atoms` packed into messages flagged Retransmission = 1.
    static func retransmissionMessages(_ atoms: [ContentAtom]) -> [ADASISMessage] {
        AtomPacking.messages(atoms, retransmission: true, update: false)
    }
}

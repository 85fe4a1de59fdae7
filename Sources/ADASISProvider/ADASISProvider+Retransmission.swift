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
        // The rest as a list of lists: the side paths' come from the packs kept between rounds,
        // each packed only when the round sends from it (a round after a turn, when the queue is
        // full of the new paths' content, sends none of them: only their number is needed).
        var rest: [RetransmissionList] = []
        rest.reserveCapacity(ahead.count + behind.count + 1)
        for side in ahead { rest.append(sidePathList(side.index)) }
        if lower < here {
            rest.append(.packed(Self.retransmissionMessages(ledger.atoms(mainIndex, in: lower...(here - 1)))))
        }
        for side in behind { rest.append(sidePathList(side.index)) }
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
        if sending > 0 {
            // Walk the lists from message `start`, wrapping round at the end.
            var list = 0, position = start
            while position >= rest[list].count {
                position -= rest[list].count
                list += 1
            }
            var messages = self.messages(of: rest[list])
            for _ in 0..<sending {
                scheduler.enqueue(messages[position], priority: .retransmission, counters: &counters)
                position += 1
                while position >= rest[list].count {
                    position = 0
                    list = (list + 1) % rest.count
                    messages = self.messages(of: rest[list])
                }
            }
        }
        retransmissionResume = sending == total ? 0 : (start + sending) % total
        counters.retransmissionsSkipped += total - sending
    }

    /// One list of a retransmission round: messages packed, or a side path's pack not made yet
    /// whose length is known.
    enum RetransmissionList {
        case packed([ADASISMessage])
        case sidePath(index: UInt8, count: Int)

        /// The number of messages in the list.
        var count: Int {
            switch self {
            case .packed(let messages): messages.count
            case .sidePath(_, let count): count
            }
        }
    }

    /// Side path `index`'s list: its pack when kept and current, else only its length when the
    /// ledger knows it without packing (``ContentLedger/messageCount(_:)``), else the pack made now.
    func sidePathList(_ index: UInt8) -> RetransmissionList {
        if let kept = retransmissionPacks[index], kept.revision == ledger.revision(index) {
            return .packed(kept.messages)
        }
        if let count = ledger.messageCount(index) { return .sidePath(index: index, count: count) }
        return .packed(sidePathPack(index))
    }

    /// The messages of `list`, packing a side path's now.
    func messages(of list: RetransmissionList) -> [ADASISMessage] {
        switch list {
        case .packed(let messages): messages
        case .sidePath(let index, _): sidePathPack(index)
        }
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

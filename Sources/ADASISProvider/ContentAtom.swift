import ADASISv2
import RoadMap

/// The smallest piece of horizon content the provider tracks: one SEGMENT, one STUB, one profile
/// spot or one PROFILE LONG value, at an absolute offset (metres, unwrapped) on a path.
///
/// The provider remembers what it sent as atoms, so that it can tell new content from changed
/// content (sent again with Update = 1) and repeat the nearby part (Retransmission = 1),
/// independently of how spots were paired into PROFILE SHORT messages.
struct ContentAtom: Hashable, Sendable {
    enum Kind: Hashable, Sendable, Comparable {
        case segment
        case stub(ordinal: Int)
        case spot(profileType: UInt8)
        case long(profileType: UInt8)
        /// A road-object mark (PROFILE SHORT 18, 19, 20) of one object type: several objects
        /// may start or end at one offset.
        case objectMark(profileType: UInt8, code: UInt16)

        fileprivate var order: (Int, Int) {
            switch self {
            case .segment: return (0, 0)
            case .stub(let ordinal): return (1, ordinal)
            case .spot(let type): return (2, Int(type))
            case .long(let type): return (3, Int(type))
            case .objectMark(let type, let code): return (2, Int(type) << 10 | Int(code))
            }
        }

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.order < rhs.order }
    }

    /// Where the atom lives: path index, offset in whole metres from the path start, kind.
    struct Key: Hashable, Sendable, Comparable {
        var pathIndex: UInt8
        var offset: Int
        var kind: Kind

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.pathIndex, lhs.offset, lhs.kind) < (rhs.pathIndex, rhs.offset, rhs.kind)
        }

        /// Path index, offset and kind folded into one word for hashing (keys that fold alike
        /// only cost a dictionary one more comparison).
        private var folded: UInt64 {
            let (group, detail) = kind.order
            return UInt64(pathIndex) << 56 ^ UInt64(truncatingIfNeeded: offset) << 24 ^ UInt64(group) << 21
                ^ UInt64(truncatingIfNeeded: detail)
        }
        /// Whether the atom here is a profile spot that may share a PROFILE SHORT with the following
        /// spot: every spot but a safety camera's (whose Value1 is its speed limit).
        var isPairableSpot: Bool {
            if case .spot(let type) = kind { return type != ProfileShortType.safetyCamera.rawValue }
            return false
        }
        /// Hashes as its folded word does.
        func hash(into hasher: inout Hasher) { hasher.combine(folded) }
        /// The folded word's `IdentifierHash`: the ledger is looked up for every atom of every
        /// tick, and a dictionary asks for this rather than building a `Hasher`.
        func _rawHashValue(seed: Int) -> Int { IdentifierHash.of(folded, seed: seed) }
    }

    var key: Key
    /// The message carrying this atom alone (flags clear, counter 0). A spot's message may be
    /// merged with the next spot of the same type when sent.
    var message: ADASISMessage
}

/// Turns atoms into the messages that carry them: SEGMENTs, STUBs and PROFILE LONGs one each,
/// profile spots of one type two per PROFILE SHORT where the second lies 1…1022 m after the first.
enum AtomPacking {
    static func messages(_ atoms: [ContentAtom], retransmission: Bool, update: Bool) -> [ADASISMessage] {
        var result: [ADASISMessage] = []
        result.reserveCapacity(atoms.count)
        var index = 0
        // Most callers hand over atoms sorted already (``PathContent/atoms(lower:upper:)``): then
        // they are read as they are, not copied into a sorted array.
        let sorted =
            atoms.indices.dropFirst().allSatisfy({ atoms[$0 - 1].key < atoms[$0].key })
            ? atoms : atoms.sorted { $0.key < $1.key }
        // The spot of each profile type waiting for a partner: a few types at most, so a list
        // searched in place rather than a dictionary built at every call.
        var pendingSpots: [(type: UInt8, atom: ContentAtom)] = []
        while index < sorted.count {
            let atom = sorted[index]
            index += 1
            guard atom.key.isPairableSpot, case .spot(let type) = atom.key.kind,
                case .profileShort(let message) = atom.message
            else {
                result.append(flagged(atom.message, retransmission, update))
                continue
            }
            if let waiting = pendingSpots.firstIndex(where: { $0.type == type }) {
                let first = pendingSpots.remove(at: waiting).atom
                let distance = atom.key.offset - first.key.offset
                if case .profileShort(var pair) = first.message, first.key.pathIndex == atom.key.pathIndex,
                    (1...1022).contains(distance)
                {
                    pair.distance1 = UInt16(distance)
                    pair.value1 = message.value0
                    result.append(flagged(.profileShort(pair), retransmission, update))
                    continue
                }
                result.append(flagged(first.message, retransmission, update))
            }
            pendingSpots.append((type, atom))
        }
        for spot in pendingSpots.sorted(by: { $0.type < $1.type }) {
            result.append(flagged(spot.atom.message, retransmission, update))
        }
        return result
    }

    static func flagged(_ message: ADASISMessage, _ retransmission: Bool, _ update: Bool) -> ADASISMessage {
        switch message {
        case .segment(let m): return .segment(m.flagged(retransmission: retransmission, update: update))
        case .stub(let m): return .stub(m.flagged(retransmission: retransmission, update: update))
        case .profileShort(let m): return .profileShort(m.flagged(retransmission: retransmission, update: update))
        case .profileLong(let m): return .profileLong(m.flagged(retransmission: retransmission, update: update))
        default: return message
        }
    }
}

import ADASISv2

/// What the provider has sent, as atoms by path: the reference for telling new content from
/// changed content and the source of retransmissions. Kept per path index so that forgetting a
/// path or purging behind the vehicle touches only that path.
struct ContentLedger: Sendable {
    /// The atoms of each path index, by the index (an array: one is read for every atom of
    /// every tick, and hashing the index cost more than the read).
    private var byPath = [[ContentAtom.Key: ADASISMessage]](repeating: [:], count: 256)
    /// Counts the changes to each path index's atoms (never reset), so that what is derived
    /// from a path's atoms (its retransmission messages) is known to be current while its
    /// revision is the same.
    private var revisions = [Int](repeating: 0, count: 256)
    /// For each path index, no atom lies before this offset (`Int.max`: none held), so that the
    /// purge at every tick finds nothing to forget without reading the atoms.
    private var lowest = [Int](repeating: .max, count: 256)
    /// For each path index, how many of its atoms are profile spots that may share a PROFILE SHORT
    /// (``ContentAtom/Key/isPairableSpot``): without any, its atoms go out one message each, so their number
    /// is known without packing them (``messageCount(_:)``).
    private var pairableSpots = [Int](repeating: 0, count: 256)

    subscript(key: ContentAtom.Key) -> ADASISMessage? {
        get { byPath[Int(key.pathIndex)][key] }
        set {
            let path = Int(key.pathIndex)
            let old =
                newValue.map { byPath[path].updateValue($0, forKey: key) } ?? byPath[path].removeValue(forKey: key)
            if key.isPairableSpot { pairableSpots[path] += (newValue == nil ? 0 : 1) - (old == nil ? 0 : 1) }
            revisions[path] += 1
            if newValue != nil { lowest[path] = min(lowest[path], key.offset) }
        }
    }

    /// The number of messages ``atoms(_:in:)`` of all of `index` packs into, when that is known
    /// without packing them (no pairable spot among them: one message an atom); `nil` otherwise.
    func messageCount(_ index: UInt8) -> Int? {
        pairableSpots[Int(index)] == 0 ? byPath[Int(index)].count : nil
    }

    /// The revision of `index`'s atoms: it changes whenever they do.
    func revision(_ index: UInt8) -> Int { revisions[Int(index)] }

    mutating func removeAll() {
        for index in byPath.indices {
            byPath[index] = [:]
            revisions[index] += 1
            lowest[index] = .max
            pairableSpots[index] = 0
        }
    }

    /// Forgets path `index`'s atoms. Its table keeps its room: the next path given the index (a
    /// turn's new side paths take the indices the old ones left) fills it without growing it
    /// again, a rehash at every doubling.
    mutating func removePath(_ index: UInt8) {
        byPath[Int(index)].removeAll(keepingCapacity: true)
        revisions[Int(index)] += 1
        lowest[Int(index)] = .max
        pairableSpots[Int(index)] = 0
    }

    /// Forgets the atoms of `index` before `offset`.
    mutating func purge(_ index: UInt8, before offset: Int) {
        let path = Int(index)
        guard lowest[path] < offset else { return }
        // The bound may be low (atoms removed since): the least offset held, read once.
        let least = byPath[path].keys.lazy.map(\.offset).min() ?? .max
        guard least < offset else {
            lowest[path] = least
            return
        }
        // In place (no copy of the table held meanwhile), so the table keeps its room for what
        // the horizon adds ahead.
        let stale = byPath[path].keys.filter { $0.offset < offset }
        for key in stale { byPath[path].removeValue(forKey: key) }
        pairableSpots[path] -= stale.count(where: \.isPairableSpot)
        lowest[path] = byPath[path].keys.lazy.map(\.offset).min() ?? .max
        revisions[path] += 1
    }

    /// Forgets the STUBs of `index` at `offset`. A junction's STUBs are written as a set, with
    /// ordinals 0, 1, 2, … (``PathContent``), and always forgotten as a set (here, by a purge, with
    /// their path): so they are looked up by ordinal until one is missing, not found by reading
    /// every atom of the path.
    mutating func removeStubs(_ index: UInt8, at offset: Int) {
        var ordinal = 0
        while byPath[Int(index)].removeValue(
            forKey: ContentAtom.Key(pathIndex: index, offset: offset, kind: .stub(ordinal: ordinal))) != nil
        {
            ordinal += 1
        }
        revisions[Int(index)] += 1
    }

    /// The atoms of `index` (within `offsets` when given).
    func atoms(_ index: UInt8, in offsets: ClosedRange<Int>? = nil) -> [ContentAtom] {
        byPath[Int(index)].compactMap { key, message in
            if let offsets, !offsets.contains(key.offset) { return nil }
            return ContentAtom(key: key, message: message)
        }
    }
}

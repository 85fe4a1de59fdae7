import ADASISv2

/// What the provider has sent, as atoms by path: the reference for telling new content from
/// changed content and the source of retransmissions. Kept per path index so that forgetting a
/// path or purging behind the vehicle touches only that path.
struct ContentLedger: Sendable {
    private var byPath: [UInt8: [ContentAtom.Key: ADASISMessage]] = [:]
    /// Counts the changes to each path index's atoms (never reset), so that what is derived
    /// from a path's atoms (its retransmission messages) is known to be current while its
    /// revision is the same.
    private var revisions = [Int](repeating: 0, count: 256)

    subscript(key: ContentAtom.Key) -> ADASISMessage? {
        get { byPath[key.pathIndex]?[key] }
        set {
            byPath[key.pathIndex, default: [:]][key] = newValue
            revisions[Int(key.pathIndex)] += 1
        }
    }

    /// The revision of `index`'s atoms: it changes whenever they do.
    func revision(_ index: UInt8) -> Int { revisions[Int(index)] }

    mutating func removeAll() {
        for index in byPath.keys { revisions[Int(index)] += 1 }
        byPath = [:]
    }

    mutating func removePath(_ index: UInt8) {
        byPath[index] = nil
        revisions[Int(index)] += 1
    }

    /// Forgets the atoms of `index` before `offset`.
    mutating func purge(_ index: UInt8, before offset: Int) {
        guard let atoms = byPath[index], atoms.keys.contains(where: { $0.offset < offset }) else { return }
        byPath[index] = atoms.filter { $0.key.offset >= offset }
        revisions[Int(index)] += 1
    }

    /// Forgets the STUBs of `index` at `offset`.
    mutating func removeStubs(_ index: UInt8, at offset: Int) {
        guard let atoms = byPath[index] else { return }
        for key in atoms.keys where key.offset == offset {
            if case .stub = key.kind { byPath[index]?[key] = nil }
        }
        revisions[Int(index)] += 1
    }

    /// The atoms of `index` (within `offsets` when given).
    func atoms(_ index: UInt8, in offsets: ClosedRange<Int>? = nil) -> [ContentAtom] {
        guard let atoms = byPath[index] else { return [] }
        return atoms.compactMap { key, message in
            if let offsets, !offsets.contains(key.offset) { return nil }
            return ContentAtom(key: key, message: message, pairable: ADASISProvider.isPairable(message))
        }
    }
}

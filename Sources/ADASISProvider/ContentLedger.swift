import ADASISv2

/// What the provider has sent, as atoms by path: the reference for telling new content from
/// changed content and the source of retransmissions. Kept per path index so that forgetting a
/// path or purging behind the vehicle touches only that path.
struct ContentLedger: Sendable {
    private var byPath: [UInt8: [ContentAtom.Key: ADASISMessage]] = [:]

    subscript(key: ContentAtom.Key) -> ADASISMessage? {
        get { byPath[key.pathIndex]?[key] }
        set { byPath[key.pathIndex, default: [:]][key] = newValue }
    }

    mutating func removeAll() { byPath = [:] }

    mutating func removePath(_ index: UInt8) { byPath[index] = nil }

    /// Forgets the atoms of `index` before `offset`.
    mutating func purge(_ index: UInt8, before offset: Int) {
        guard let atoms = byPath[index], atoms.keys.contains(where: { $0.offset < offset }) else { return }
        byPath[index] = atoms.filter { $0.key.offset >= offset }
    }

    /// Forgets the STUBs of `index` at `offset`.
    mutating func removeStubs(_ index: UInt8, at offset: Int) {
        guard let atoms = byPath[index] else { return }
        for key in atoms.keys where key.offset == offset {
            if case .stub = key.kind { byPath[index]?[key] = nil }
        }
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

import Horizon

/// The paths of a horizon tree in the order the provider's ticks visit them: breadth first from
/// the main path, each path's children by branch offset. Built once per tree, so a tick walks an
/// array instead of rebuilding a queue of paths.
struct PathVisitOrder {
    /// One path of the order.
    struct Entry {
        /// The path.
        var id: PathID
        /// Position of its parent in ``entries`` (`nil` for the main path).
        var parent: Int?
        /// Where it leaves its parent, in metres along the parent (0 for the main path).
        var branchOffset: Double
        /// Sent up to its frontier with nothing left to change until the next tree: the ticks
        /// pass over it (only side paths rest; the main path's frontier moves with the vehicle).
        var isResting = false
    }

    /// The paths, parents before children.
    private(set) var entries: [Entry] = []

    /// No paths.
    init() {}

    /// The order of `tree`: each path's children as its table indexes them, by branch offset then
    /// identifier.
    init(tree: PathTree) {
        guard let main = tree.mainPathID, tree.paths[main] != nil else { return }
        entries.reserveCapacity(tree.paths.count)
        entries.append(Entry(id: main, parent: nil, branchOffset: 0))
        var position = 0
        while position < entries.count {
            for child in tree.paths.childIDs(of: entries[position].id) {
                entries.append(Entry(id: child, parent: position, branchOffset: tree.paths[child]?.branchOffset ?? 0))
            }
            position += 1
        }
    }

    /// Marks the entry at `position` as resting.
    mutating func rest(_ position: Int) { entries[position].isResting = true }

    /// The path `id` no longer rests (its content changed).
    mutating func wake(_ id: PathID) {
        if let position = entries.firstIndex(where: { $0.id == id }) { entries[position].isResting = false }
    }

    /// No path rests (everything sent was forgotten).
    mutating func wakeAll() {
        for position in entries.indices { entries[position].isResting = false }
    }
}

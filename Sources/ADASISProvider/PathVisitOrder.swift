import Horizon
import RoadMap

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
        /// The link it enters at its junction (its first link).
        var firstLink: DirectedLink?
        /// Its level (0 for the main path).
        var level: Int
        /// Its probability at its junction.
        var probability: Double
        /// Where the level-1 path it hangs from (itself, at level 1) leaves the main path, in
        /// metres along the main path; `nil` for the main path.
        var rootOffset: Double?
        /// Positions of its children in ``entries``: breadth first, they follow one another.
        var children: Range<Int> = 0..<0
        /// Sent up to its frontier with nothing left to change until the next tree: the ticks
        /// pass over it (only side paths rest; the main path's frontier moves with the vehicle).
        var isResting = false
    }

    /// The paths, parents before children.
    private(set) var entries: [Entry] = []
    /// Whether the last walk left every side path it visited resting, and nothing woke a path
    /// since: until the main path's content is due or something wakes a path, a walk would find
    /// nothing to send (``ADASISProvider``'s ticks then skip it).
    private(set) var isSettled = false

    /// No paths.
    init() {}

    /// The order of `tree`: each path's children as its table indexes them, by branch offset then
    /// identifier.
    init(tree: PathTree) {
        guard let main = tree.mainPathID, let mainPath = tree.paths[main] else { return }
        entries.reserveCapacity(tree.paths.count)
        entries.append(Self.entry(mainPath, parent: nil))
        var position = 0
        while position < entries.count {
            let first = entries.count
            let parentRoot = entries[position].rootOffset
            for child in tree.paths.childIDs(of: entries[position].id) {
                guard
                    let entry = tree.paths.withPath(
                        child,
                        { Self.entry($0, parent: position, rootOffset: position == 0 ? $0.branchOffset : parentRoot) })
                else { continue }
                entries.append(entry)
            }
            entries[position].children = first..<entries.count
            position += 1
        }
    }

    private static func entry(_ path: borrowing HorizonPath, parent: Int?, rootOffset: Double? = nil) -> Entry {
        Entry(
            id: path.id, parent: parent, branchOffset: path.branchOffset ?? 0, firstLink: path.links.first?.link,
            level: path.level, probability: path.probability, rootOffset: rootOffset)
    }

    /// The child of the path at `position` that enters `link` at `offset` on it (within half a
    /// metre), `nil` when there is none.
    func child(of position: Int, at offset: Double, entering link: DirectedLink) -> Entry? {
        guard entries.indices.contains(position) else { return nil }
        return entries[entries[position].children].first {
            $0.firstLink == link && abs($0.branchOffset - offset) < 0.5
        }
    }

    /// Marks the entry at `position` as resting.
    mutating func rest(_ position: Int) { entries[position].isResting = true }

    /// Records that the last walk left every side path it visited resting.
    mutating func settle() { isSettled = true }

    /// The path `id` no longer rests (its content changed).
    mutating func wake(_ id: PathID) {
        isSettled = false
        if let position = entries.firstIndex(where: { $0.id == id }) { entries[position].isResting = false }
    }

    /// No path rests (everything sent was forgotten).
    mutating func wakeAll() {
        isSettled = false
        for position in entries.indices { entries[position].isResting = false }
    }
}

import Horizon
import RoadMap
import Testing
import TestSupport

/// The children index of ``PathTable`` always says what a scan of all paths says.
@Suite("path table")
struct PathTableTests {
    /// The children of `parent` by scanning every path: the definition the index must follow.
    static func scannedChildren(of parent: PathID, in table: PathTable) -> [PathID] {
        table.values.filter { $0.parent == parent }
            .sorted { ($0.branchOffset ?? 0, $0.id.rawValue) < ($1.branchOffset ?? 0, $1.id.rawValue) }.map(\.id)
    }

    static func path(_ id: Int, parent: Int?, offset: Double?) -> HorizonPath {
        HorizonPath(
            id: PathID(rawValue: id), parent: parent.map { PathID(rawValue: $0) }, branchOffset: offset,
            level: parent == nil ? 0 : 1, probability: 1, turnAngle: nil, links: [])
    }

    @Test("children stay indexed through random adds, removals, moves and in-place edits")
    func randomEdits() {
        var generator = SplitMix64(seed: 2026)
        var tree = PathTree(
            paths: [PathID(rawValue: 0): Self.path(0, parent: nil, offset: nil)], mainPathID: PathID(rawValue: 0))
        for step in 0..<3000 {
            let id = PathID(rawValue: Int.random(in: 1..<60, using: &generator))
            let parent = Int.random(in: 0..<12, using: &generator)
            // Few distinct offsets, so that ties are ordered by identifier.
            let offset = Double(Int.random(in: 0..<5, using: &generator)) * 10
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: tree.paths[id] = Self.path(id.rawValue, parent: parent, offset: offset)
            case 1: tree.paths[id] = nil
            case 2: tree.paths[id]?.branchOffset = offset
            case 3: tree.paths[id]?.parent = PathID(rawValue: parent)
            default: tree.paths.removeValue(forKey: id)
            }
            for parent in 0..<12 {
                let parentID = PathID(rawValue: parent)
                #expect(
                    tree.children(of: parentID).map(\.id) == Self.scannedChildren(of: parentID, in: tree.paths),
                    "step \(step)")
            }
        }
        let rebuilt = PathTree(
            paths: Dictionary(uniqueKeysWithValues: tree.paths.map { ($0.key, $0.value) }), mainPathID: tree.mainPathID)
        #expect(rebuilt == tree)
        for parent in 0..<12 {
            #expect(
                rebuilt.paths.childIDs(of: PathID(rawValue: parent))
                    == tree.paths.childIDs(of: PathID(rawValue: parent)))
        }
    }

    @Test("subtree lists a path and everything below it, parents first")
    func subtree() {
        let tree = PathTree(
            paths: [
                PathID(rawValue: 1): Self.path(1, parent: nil, offset: nil),
                PathID(rawValue: 2): Self.path(2, parent: 1, offset: 50),
                PathID(rawValue: 3): Self.path(3, parent: 1, offset: 20),
                PathID(rawValue: 4): Self.path(4, parent: 2, offset: 5),
                PathID(rawValue: 5): Self.path(5, parent: 3, offset: 5),
            ], mainPathID: PathID(rawValue: 1))
        #expect(tree.subtree(of: PathID(rawValue: 1)).map(\.rawValue) == [1, 3, 2, 5, 4])
        #expect(tree.subtree(of: PathID(rawValue: 2)).map(\.rawValue) == [2, 4])
    }
}

import Testing
import RoadMap
@testable import RoadMapImport

/// The import's preparation passes read the extract asking only for ways and relations
/// (``OSMElementKinds``): they must see exactly those elements of a full read, in the same order,
/// at the same block boundaries and offsets, on one thread and on several.
@Suite("PBF reading by element kind")
struct ElementKindFilterTests {
    /// Every block of the sample read with `kinds`, with the reader's offset after it.
    static func read(kinds: OSMElementKinds, threads: Int) throws -> [(elements: [OSMElement], offset: Int)] {
        var reader = try OSMPBFReader(path: OSMPBFSample.path, threads: threads, kinds: kinds)
        var blocks: [(elements: [OSMElement], offset: Int)] = []
        while let block = try reader.nextBlock() { blocks.append((block, reader.bytesRead)) }
        #expect(reader.bytesRead == reader.totalBytes)
        return blocks
    }

    static func kind(_ element: OSMElement) -> OSMElementKinds {
        switch element {
        case .node: .nodes
        case .way: .ways
        case .relation: .relations
        }
    }

    @Test(
        "any kinds asked for: the full read's elements of those kinds, block by block, at the same offsets",
        arguments: [OSMElementKinds([.ways, .relations]), .ways, .nodes, .relations])
    func sameElementsOfTheKinds(kinds: OSMElementKinds) throws {
        let full = try Self.read(kinds: .all, threads: 1)
        #expect(full.reduce(0) { $0 + $1.elements.count } == 24_260 + 5_130 + 620)
        for threads in [1, 2] {
            let filtered = try Self.read(kinds: kinds, threads: threads)
            try #require(filtered.count == full.count, "one entry per block, empty when none of the kinds")
            // Blocks holding none of the kinds come back empty; without nodes, that is the node blocks.
            let empty = full.filter { !$0.elements.contains { kinds.contains(Self.kind($0)) } }.count
            #expect(filtered.filter(\.elements.isEmpty).count == empty)
            if !kinds.contains(.nodes) { #expect(empty > 0) }
            for (index, (one, all)) in zip(filtered, full).enumerated() {
                #expect(one.elements == all.elements.filter { kinds.contains(Self.kind($0)) }, "block \(index)")
                #expect(one.offset == all.offset, "block \(index)")
            }
        }
    }
}

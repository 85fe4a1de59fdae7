import RoadMap
import Testing
@testable import RoadMapImport

@Suite("ways clipped by the extract's bounding box")
struct ClippedWayTests {
    @Test("the longest run of present nodes is kept and the cut counted")
    func longestRun() {
        let present: Set<Int64> = [2, 3, 5, 6, 7]
        let way = ClippedWay(nodeIDs: [1, 2, 3, 4, 5, 6, 7, 8], isPresent: present.contains)
        #expect(way.nodeIDs == [5, 6, 7])
        #expect(way.droppedNodeCount == 5)
        #expect(way.wasClipped)
    }

    @Test("a complete way is kept unchanged")
    func complete() {
        let way = ClippedWay(nodeIDs: [1, 2, 3], isPresent: { _ in true })
        #expect(way.nodeIDs == [1, 2, 3])
        #expect(!way.wasClipped)
    }

    @Test("a way with no two consecutive present nodes is dropped entirely")
    func nothingUsable() {
        let way = ClippedWay(nodeIDs: [1, 2, 3, 4], isPresent: { $0 % 2 == 0 })
        #expect(way.nodeIDs.isEmpty)
        #expect(way.droppedNodeCount == 4)
    }
}

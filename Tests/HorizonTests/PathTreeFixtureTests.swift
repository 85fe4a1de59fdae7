import Testing
import RoadMap
@testable import Horizon
import TestSupport

/// A match result on `link` at `offset` metres from its entry.
func onRoad(_ link: DirectedLink, _ offset: Double, time: Double, discontinuity: Bool = false) -> MatchResult {
    MatchResult(
        time: time,
        state: .onRoad(
            MatchedPosition(
                link: link, offset: offset,
                point: PlaneRoadGraph.origin, confidence: 1)),
        discontinuity: discontinuity)
}

/// Shorthand for a forward directed link.
func fwd(_ id: UInt64) -> DirectedLink { DirectedLink(LinkID(id), .forward) }
/// Shorthand for a backward directed link.
func bwd(_ id: UInt64) -> DirectedLink { DirectedLink(LinkID(id), .backward) }

@Suite struct PathTreeFixtureTests {
    @Test func fourWayGeometryHasTheExpectedLengthsAndBearings() throws {
        let network = PlaneRoadGraph.fourWay().network
        let incoming = try network.link(LinkID(1))
        #expect(abs(incoming.length - 100) < 0.5)
        #expect(abs(incoming.exitBearing(.forward) - 90) < 0.5)
        #expect(abs(try network.link(LinkID(3)).entryBearing(.forward) - 0) < 0.5)
        #expect(abs(incoming.exitBearing(.backward) - 270) < 0.5)
        #expect(signedTurnAngle(from: 350, to: 10) == 20)
        #expect(signedTurnAngle(from: 10, to: 350) == -20)
        #expect(signedTurnAngle(from: 90, to: 270) == 180)
    }
}

extension PlaneRoadGraph {
    /// A comb: the main street "Main" (secondary) runs east, links 1…`count` of 100 m (link i from
    /// node i−1 to node i). At every inner node i a residential side street leaves north: link
    /// 100+i (150 m, to node 100+i), then straight on link 200+i (1000 m north) or right onto link
    /// 300+i (1000 m east); both end in dead ends.
    static func comb(count: Int = 40) -> PlaneRoadGraph {
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0)
        for i in 1...count {
            let x = Double(i) * 100
            graph.node(Int64(i), x, 0)
            graph.road(UInt64(i), Int64(i - 1), Int64(i), highway: .secondary, name: "Main")
            guard i < count else { continue }
            graph.node(Int64(100 + i), x, 150)
            graph.node(Int64(200 + i), x, 1150)
            graph.node(Int64(300 + i), x + 1000, 150)
            graph.road(UInt64(100 + i), Int64(i), Int64(100 + i))
            graph.road(UInt64(200 + i), Int64(100 + i), Int64(200 + i))
            graph.road(UInt64(300 + i), Int64(100 + i), Int64(300 + i))
        }
        return graph
    }
}

extension PathTree {
    /// The side path branching off `parent` at `offset`, if any.
    func child(of parent: PathID, at offset: Double) -> HorizonPath? {
        children(of: parent).first { abs(($0.branchOffset ?? -1) - offset) < 0.5 }
    }
}

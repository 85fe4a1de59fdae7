import Testing
import RoadMap
import TestSupport

/// ``LongestWaysOn``: how far a vehicle can drive from the start of each directed link before every
/// way ends, what a map stores for the branch model's cul-de-sac rule.
@Suite struct LongestWaysOnTests {
    private func lengths(_ graph: PlaneRoadGraph, limit: Double = LongestWaysOn.storedLimit) -> [DirectedLink: Double] {
        LongestWaysOn.lengths(links: graph.links, restrictions: graph.restrictions, limit: limit)
    }

    @Test func aJunctionOfDeadEndsLeadsAsFarAsItsLongestArm() throws {
        // Link 1 comes in from the west; 2, 3, 4 leave to the east, north and south, all 100 m and ending.
        var graph = PlaneRoadGraph.fourWay()
        graph.node(5, 600, 0)
        graph.road(5, 2, 5)  // the east arm goes on 500 m to its end
        let found = lengths(graph)
        func near(_ link: DirectedLink, _ metres: Double) -> Bool { abs((found[link] ?? .nan) - metres) < 0.5 }
        #expect(near(fwd(1), 700) && near(fwd(2), 600) && near(fwd(3), 100) && near(fwd(5), 500))
        // Back from the end of the east road: to the junction, then the longest arm (U-turns aside).
        #expect(near(bwd(5), 700) && near(bwd(2), 200))
        // What the map keeps is what ends within the limit.
        #expect(Set(lengths(graph, limit: 150).keys) == [fwd(3), fwd(4), bwd(1)])
    }

    @Test func aLoopLeadsOnAndSoDoesEveryLinkIntoIt() throws {
        // A 40 m street from the junction's east arm ends in a turning loop (a court).
        let graph = PlaneRoadGraph.fourWayWithCourt()
        let found = lengths(graph)
        #expect(found[fwd(1)] == nil && found[fwd(2)] == nil && found[fwd(5)] == nil)
        #expect(found[fwd(3)] != nil && found[bwd(3)] == nil)  // north arm out ends; back in it reaches the loop
    }

    @Test func turnRestrictionsAndOnewayShapeTheWaysOn() throws {
        var graph = PlaneRoadGraph.fourWay()
        graph.node(5, 600, 0)
        graph.road(5, 2, 5)
        graph.restrictions = [TurnRestriction(from: LinkID(1), via: NodeID(0), to: LinkID(2), kind: .prohibitory)]
        #expect(abs((lengths(graph)[fwd(1)] ?? .nan) - 200) < 0.5)  // east is forbidden: north or south
        graph.restrictions = [TurnRestriction(from: LinkID(1), via: NodeID(0), to: LinkID(2), kind: .mandatory)]
        #expect(abs((lengths(graph)[fwd(1)] ?? .nan) - 700) < 0.5)
        var oneway = PlaneRoadGraph.fourWay()
        oneway.links[2].oneway = .forward  // the north arm only away from the junction
        let found = lengths(oneway)
        #expect(found[bwd(3)] == nil && found[fwd(3)] != nil)
        #expect(abs((found[bwd(2)] ?? .nan) - 200) < 0.5)
    }
}

private func fwd(_ id: UInt64) -> DirectedLink { DirectedLink(LinkID(id), .forward) }
private func bwd(_ id: UInt64) -> DirectedLink { DirectedLink(LinkID(id), .backward) }

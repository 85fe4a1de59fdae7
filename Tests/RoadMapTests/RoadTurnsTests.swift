import Testing
import RoadMap
import TestSupport

/// ``RoadTurns``, the successor lists a map stores, against the in-memory network's own
/// ``InMemoryRoadNetwork/successors(of:)``.
@Suite struct RoadTurnsTests {
    /// Every directed link's successors in `graph`, from the turns and from the network.
    private func compare(_ graph: PlaneRoadGraph) throws {
        let links = graph.links.sorted { $0.id < $1.id }
        let turns = RoadTurns(links: links, restrictions: graph.restrictions)
        let network = graph.network
        for (index, link) in links.enumerated() {
            for direction in [LinkDirection.forward, .backward] {
                let expected = try network.successors(of: DirectedLink(link.id, direction))
                #expect(turns.successors(ofLinkAt: index, direction) == expected, "\(link.id) \(direction)")
            }
        }
    }

    @Test func aCrossingWithOnewayAndRestrictionsTurnsAsTheNetworkDoes() throws {
        try compare(PlaneRoadGraph.crossing())
        try compare(PlaneRoadGraph.crossing(onewayNorthInbound: true))
        try compare(
            PlaneRoadGraph.crossing(restrictions: [
                TurnRestriction(from: LinkID(3), via: NodeID(0), to: LinkID(2), kind: .prohibitory),
                TurnRestriction(from: LinkID(4), via: NodeID(0), to: LinkID(1), kind: .mandatory),
            ]))
    }

    @Test func theUTurnIsListedWhereLegalAndALoopLeadsIntoItself() throws {
        var graph = PlaneRoadGraph.fourWayWithCourt()
        graph.road(8, 5, 5, via: [(150, -10), (160, 0), (150, 10)])  // a loop link: starts and ends at node 5
        try compare(graph)
        let links = graph.links.sorted { $0.id < $1.id }
        let turns = RoadTurns(links: links, restrictions: [])
        let atEnd = turns.successors(ofLinkAt: 1, .forward)  // link 2 east to node 2
        #expect(atEnd.contains(DirectedLink(LinkID(2), .backward)))  // the U-turn, legal on a two-way road
    }
}

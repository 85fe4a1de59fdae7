import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

@Suite struct RouteDistanceMatchTests {
    /// A plus junction at node 0 (plane origin): arm `i` runs from node 0 out to node `i`, 100 m long,
    /// 1 north, 2 east, 3 south, 4 west. Plus a chain west: link 5 from node 4 to node 5, 100 m.
    private func crossing(restrictions: [TurnRestriction] = [], eastOneway: Oneway = .no) -> InMemoryRoadNetwork {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (0, 100)])
        g.add(2, 0, 2, [(0, 0), (100, 0)], oneway: eastOneway)
        g.add(3, 0, 3, [(0, 0), (0, -100)])
        g.add(4, 0, 4, [(0, 0), (-100, 0)])
        g.add(5, 4, 5, [(-100, 0), (-200, 0)])
        g.restrictions = restrictions
        return g.network
    }

    private func candidate(_ id: UInt64, _ direction: LinkDirection, _ offset: Double) -> MatchCandidate {
        MatchCandidate(
            link: DirectedLink(LinkID(id), direction), offset: offset, measuredOffset: offset, length: 100,
            point: PlaneRoadGraph.origin, distance: 0, bearing: 0, emission: 0)
    }

    private func distances(
        _ network: InMemoryRoadNetwork, from source: MatchCandidate, to targets: [MatchCandidate],
        limit: Double = 500
    ) throws -> [Double] {
        var search = RouteDistanceSearch()
        var result: [Double] = []
        try search.distances(from: source, to: targets, limit: limit, in: network, into: &result)
        return result
    }

    @Test func distancesFollowTheGraph() throws {
        let network = crossing()
        // From 30 m before the junction on the south arm (driving north) …
        let source = candidate(3, .backward, 70)
        let d = try distances(
            network, from: source,
            to: [
                candidate(3, .backward, 90),  // … 20 m further on the same link
                candidate(1, .forward, 40),  // straight on: 30 + 40
                candidate(2, .forward, 10),  // right turn: 30 + 10
                candidate(5, .forward, 50),  // left, then the next link: 30 + 100 + 50
            ])
        #expect(d.count == 4)
        #expect(abs(d[0] - 20) < 1e-9)
        #expect(abs(d[1] - 70) < 1e-6)
        #expect(abs(d[2] - 40) < 1e-6)
        #expect(abs(d[3] - 180) < 1e-6)
    }

    @Test func onewayAndTurnRestrictionsAreRespected() throws {
        let source = candidate(3, .backward, 70)
        let target = candidate(2, .forward, 10)
        // East arm one-way towards the junction: cannot be entered.
        #expect(try distances(crossing(eastOneway: .backward), from: source, to: [target]) == [.infinity])
        // No right turn from the south arm: the only way is a detour, which this graph lacks
        // except by U-turns at dead ends: north arm end and back = 30 + 100 + 50 + 100 + 10.
        let noRight = crossing(restrictions: [
            TurnRestriction(from: LinkID(3), via: NodeID(0), to: LinkID(2), kind: .prohibitory)
        ])
        let detour = try distances(noRight, from: source, to: [target])
        #expect(abs(detour[0] - 290) < 1e-6)
        // With a tighter limit the detour is not searched.
        #expect(try distances(noRight, from: source, to: [target], limit: 200) == [.infinity])
    }

    @Test func smallBackwardMovesCountAsNoiseLargeOnesNeedARoute() throws {
        let network = crossing()
        let source = candidate(3, .backward, 70)
        // 10 m back on the same link: GNSS noise of a stopped car, distance 10.
        #expect(try distances(network, from: source, to: [candidate(3, .backward, 60)]) == [10])
        // 50 m back: beyond the 15 m tolerance, so the car must turn around twice.
        let back = try distances(network, from: source, to: [candidate(3, .backward, 20)])
        // Junction, turn onto link 3 forward (U-turn, +50), to its dead end (100), U-turn (+50),
        // back to offset 20: 30 + 50 + 100 + 50 + 20.
        #expect(abs(back[0] - 250) < 1e-6)
    }

    @Test func oppositeDirectionOfTheSameLinkNeedsATurn() throws {
        let network = crossing()
        // Driving north on the south arm, 30 m before the junction; the reverse direction at the
        // same place is reached by a U-turn at the junction: 30 + 50 + 30.
        let d = try distances(network, from: candidate(3, .backward, 70), to: [candidate(3, .forward, 30)])
        #expect(abs(d[0] - 110) < 1e-6)
    }
}

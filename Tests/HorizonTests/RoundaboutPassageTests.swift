import Foundation
import Testing
import RoadMap
@testable import Horizon
import TestSupport

/// A roundabout of radius 15 m at the origin: four one-way quarter links counter-clockwise
/// (21 E→N, 22 N→W, 23 W→S, 24 S→E) and four two-way arms of 200 m (11 from the south, 12 east,
/// 13 north, 14 west), so the exit straight across from the south arm is the third one.
private func roundabout(edit: (inout PlaneRoadGraph) -> Void = { _ in }) -> PlaneRoadGraph {
    var graph = PlaneRoadGraph()
    let r = 15.0
    graph.node(1, r, 0)
    graph.node(2, 0, r)
    graph.node(3, -r, 0)
    graph.node(4, 0, -r)
    graph.node(11, 0, -200)
    graph.node(12, 200, 0)
    graph.node(13, 0, 200)
    graph.node(14, -200, 0)
    func arc(_ from: Double) -> [(Double, Double)] {
        (1...5).map { k in
            let a = (from + 15 * Double(k)) * .pi / 180
            return (r * cos(a), r * sin(a))
        }
    }
    for (id, from, to, start) in [(21, 1, 2, 0.0), (22, 2, 3, 90), (23, 3, 4, 180), (24, 4, 1, 270)] {
        graph.road(UInt64(id), Int64(from), Int64(to), highway: .tertiary, oneway: .forward, via: arc(start)) {
            $0.formOfWay = .roundabout
        }
    }
    graph.road(11, 11, 4, highway: .tertiary)
    graph.road(12, 1, 12, highway: .tertiary)
    graph.road(13, 2, 13, highway: .tertiary)
    graph.road(14, 3, 14, highway: .tertiary)
    edit(&graph)
    return graph
}

@Suite struct RoundaboutPassageTests {
    @Test func mainPathLeavesByTheExitStraightAcrossInsteadOfCircling() throws {
        let engine = try HorizonEngine(network: roundabout().network)
        _ = try engine.update(onRoad(fwd(11), 100, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        // Node by node, going on round is the straightest continuation at every ring node; through
        // the whole roundabout the north arm continues the heading of the south arm.
        #expect(main.links.prefix(4).map(\.link) == [fwd(11), fwd(24), fwd(21), fwd(13)])
        // (The arms end after 200 m, so the path comes back by the dead end's U-turn afterwards.)
        #expect(main.links[4].link == DirectedLink(LinkID(13), .backward))
        // The exits not taken are side paths of the main path.
        let sides = Set(engine.tree.children(of: main.id).compactMap { $0.links.first?.link })
        #expect(sides.isSuperset(of: [fwd(12), fwd(22)]))
    }

    @Test func theEntryRoadsNameOutweighsTheAngleAsAtAPlainJunction() throws {
        // The south arm and the west arm (a left turn through the roundabout) are one street.
        let graph = roundabout {
            $0.links[4].name = "Lehtotie"
            $0.links[7].name = "Lehtotie"
            $0.links[7].highway = .secondary
            $0.links[4].highway = .secondary
        }
        let model = BranchProbabilityModel()
        #expect(try model.roundaboutContinuation(entry: fwd(11), current: fwd(24), in: graph.network) == fwd(21))
        #expect(try model.roundaboutContinuation(entry: fwd(11), current: fwd(21), in: graph.network) == fwd(22))
        #expect(try model.roundaboutContinuation(entry: fwd(11), current: fwd(22), in: graph.network) == fwd(14))
        // Not on a roundabout: no opinion.
        #expect(try model.roundaboutContinuation(entry: fwd(11), current: fwd(13), in: graph.network) == nil)
    }
}

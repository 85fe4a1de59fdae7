import Testing
import RoadMap
@testable import Horizon
import TestSupport

/// An offered U-turn goes back the way the vehicle came, and rejoins a one-way road it came along
/// in that road's direction (`UTurnWayBack.swift`).
@Suite struct UTurnWayBackTests {
    /// Lönnrotinkatu (links 1 and 2, west to east through node 0, `oneway` as given) with a side
    /// street north from node 0 (link 3, 100 m, to node 3, where it meets links 4 and 5) and a
    /// street south from node 0 (link 6, 300 m: no cul-de-sac). Coming back down the side street,
    /// south is straight on.
    private func graph(lönnrotinkatu oneway: Oneway) -> PlaneRoadGraph {
        var graph = PlaneRoadGraph()
        graph.node(1, -200, 0)
        graph.node(0, 0, 0)
        graph.node(2, 200, 0)
        graph.node(6, 0, -300)
        graph.node(3, 0, 100)
        graph.node(4, 0, 200)
        graph.node(5, 100, 100)
        graph.road(1, 1, 0, name: "Lönnrotinkatu", oneway: oneway)
        graph.road(2, 0, 2, name: "Lönnrotinkatu", oneway: oneway)
        graph.road(6, 0, 6, name: "Yrjönkatu")
        graph.road(3, 0, 3, name: "Yrjönkatu")
        graph.road(4, 3, 4, name: "Yrjönkatu")
        graph.road(5, 3, 5, name: "Bulevardi")
        return graph
    }

    /// The U-turn at the end of the side street after the vehicle turned into it from
    /// Lönnrotinkatu: its first links.
    private func uTurnAfterTheTurn(_ graph: PlaneRoadGraph) throws -> [DirectedLink] {
        var configuration = HorizonConfiguration()
        configuration.branchModel.offersUTurns = true
        let engine = try HorizonEngine(network: graph.network, configuration: configuration)
        _ = try engine.update(onRoad(fwd(1), 150, time: 0, discontinuity: true))
        #expect(engine.tree.mainPath?.links.map(\.link).prefix(2) == [fwd(1), fwd(2)])
        // The turn into the side street: its side path becomes the main path.
        _ = try engine.update(onRoad(fwd(3), 20, time: 3))
        let main = try #require(engine.tree.mainPath)
        #expect(main.links.first?.link == fwd(3))
        let uTurn = try #require(engine.tree.children(of: main.id).first { $0.links.first?.link == bwd(3) })
        #expect(uTurn.probability == 0 && uTurn.turnAngle == 180)
        return uTurn.links.map(\.link)
    }

    @Test func aUTurnGoesBackTheWayTheVehicleCame() throws {
        // The most probable continuation back at node 0 is straight on south (link 6); the vehicle
        // came along Lönnrotinkatu from the west, and the way back follows it.
        let links = try uTurnAfterTheTurn(graph(lönnrotinkatu: .no))
        #expect(links.prefix(2) == [bwd(3), bwd(1)])
    }

    @Test func aOneWayRoadOnTheWayBackIsRejoinedInItsDirection() throws {
        // Lönnrotinkatu is one-way east: the way back cannot drive it west, so the U-turn turns
        // onto it eastward (where the vehicle was heading before the side street), not south.
        let links = try uTurnAfterTheTurn(graph(lönnrotinkatu: .forward))
        #expect(links.prefix(2) == [bwd(3), fwd(2)])
    }

    @Test func theWayBackStaysUnbrokenWhereTheLinksBehindAreTrimmed() throws {
        // The side street goes on 300 + 300 m north (links 7 and 8) to a junction at node 8.
        // Where the main path's links behind the vehicle are trimmed, they join the way back.
        var graph = graph(lönnrotinkatu: .no)
        graph.links.removeAll { [4, 5].contains($0.id.rawValue) }
        graph.node(7, 0, 400)
        graph.node(8, 0, 700)
        graph.node(9, 0, 800)
        graph.node(10, 100, 700)
        graph.road(7, 3, 7, name: "Yrjönkatu")
        graph.road(8, 7, 8, name: "Yrjönkatu")
        graph.road(9, 8, 9, name: "Yrjönkatu")
        graph.road(10, 8, 10, name: "Bulevardi")
        var configuration = HorizonConfiguration()
        configuration.branchModel.offersUTurns = true
        let engine = try HorizonEngine(network: graph.network, configuration: configuration)
        _ = try engine.update(onRoad(fwd(1), 150, time: 0, discontinuity: true))
        _ = try engine.update(onRoad(fwd(3), 20, time: 3))
        _ = try engine.update(onRoad(fwd(7), 200, time: 30))
        _ = try engine.update(onRoad(fwd(8), 50, time: 45))
        // Link 3 ended 350 m behind: trimmed from the main path. A U-turn placed from now on still
        // goes back through it to Lönnrotinkatu.
        let main = try #require(engine.tree.mainPath)
        #expect(main.links.first?.link == fwd(7))
        let wayBack = engine.wayBack(from: main.id, throughLinkIndex: 1, length: 1000).map(\.link)
        #expect(wayBack == [bwd(8), bwd(7), bwd(3), bwd(1)])
    }

    @Test func withoutAWayBackTheUTurnFollowsTheMostProbableContinuation() throws {
        // A new tree on the side street knows nothing of where the vehicle came from.
        var configuration = HorizonConfiguration()
        configuration.branchModel.offersUTurns = true
        let engine = try HorizonEngine(network: graph(lönnrotinkatu: .no).network, configuration: configuration)
        _ = try engine.update(onRoad(fwd(3), 20, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        let uTurn = try #require(engine.tree.children(of: main.id).first { $0.links.first?.link == bwd(3) })
        #expect(uTurn.links.map(\.link).prefix(2) == [bwd(3), fwd(6)])
    }
}

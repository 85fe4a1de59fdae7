import Testing
import RoadMap
@testable import Horizon
import TestSupport

@Suite struct BranchProbabilityModelTests {
    let model = BranchProbabilityModel()

    private func probabilities(_ graph: PlaneRoadGraph, after incoming: DirectedLink = fwd(1)) throws -> [DirectedLink:
        JunctionBranch]
    {
        let branches = try model.branches(after: incoming, in: graph.network)
        return Dictionary(uniqueKeysWithValues: branches.map { ($0.link, $0) })
    }

    @Test func straightOnIsMostProbableAndTurnsShareTheRest() throws {
        let branches = try model.branches(after: fwd(1), in: PlaneRoadGraph.fourWay().network)
        #expect(branches.map(\.link) == [fwd(2), fwd(4), fwd(3)] || branches.map(\.link) == [fwd(2), fwd(3), fwd(4)])
        let byLink = Dictionary(uniqueKeysWithValues: branches.map { ($0.link, $0) })
        #expect(abs(branches.reduce(0) { $0 + $1.probability } - 1) < 1e-9)
        #expect(abs(byLink[fwd(2)]!.probability - 0.606) < 0.01)
        #expect(abs(byLink[fwd(3)]!.probability - byLink[fwd(4)]!.probability) < 0.01)
        #expect(abs(byLink[fwd(2)]!.turnAngle) < 1)
        #expect(abs(byLink[fwd(4)]!.turnAngle - 90) < 1)  // south = right when heading east
        #expect(abs(byLink[fwd(3)]!.turnAngle + 90) < 1)  // north = left
        #expect(branches.allSatisfy { !$0.isUTurn })
    }

    @Test func roadClassContinuityOutweighsTheAngle() throws {
        var graph = PlaneRoadGraph.fourWay()
        graph.links[0].highway = .primary
        graph.links[2].highway = .primary  // north arm
        let byLink = try probabilities(graph)
        #expect(byLink[fwd(3)]!.probability > byLink[fwd(2)]!.probability)
        #expect(try model.branches(after: fwd(1), in: graph.network).first?.link == fwd(3))
    }

    @Test func sameNameOrRefDoublesTheWeight() throws {
        var graph = PlaneRoadGraph.fourWay()
        graph.links[0].name = "Mannerheimintie"
        graph.links[3].name = "Mannerheimintie"  // south arm, a right turn
        var byLink = try probabilities(graph)
        #expect(abs(byLink[fwd(4)]!.probability / byLink[fwd(3)]!.probability - 2) < 0.05)
        graph.links[3].name = nil
        graph.links[0].ref = "E12"
        graph.links[2].ref = "E12"  // north arm, a left turn
        byLink = try probabilities(graph)
        #expect(abs(byLink[fwd(3)]!.probability / byLink[fwd(4)]!.probability - 2) < 0.05)
    }

    @Test func moreLanesAttractMoreTraffic() throws {
        var graph = PlaneRoadGraph.fourWay()
        graph.links[2].forward.lanes = 3  // north arm
        let byLink = try probabilities(graph)
        #expect(abs(byLink[fwd(3)]!.probability / byLink[fwd(4)]!.probability - 1.3) < 0.05)
    }

    @Test func rampsAreLessLikelyThanTheRoadTheyLeave() throws {
        var graph = PlaneRoadGraph.fourWay()
        graph.links[0].highway = .motorway
        graph.links[1].highway = .motorway
        graph.links[3].highway = .motorwayLink
        graph.links[2].highway = .motorwayLink
        let byLink = try probabilities(graph)
        let expected = (0.1 + 0.9 * 0.25) * 0.5 / 1.0
        #expect(abs(byLink[fwd(4)]!.probability / byLink[fwd(2)]!.probability - expected) < 0.01)
    }

    @Test func enteringAOnewayAgainstItsDirectionIsNotOffered() throws {
        var graph = PlaneRoadGraph.fourWay()
        graph.links[1].oneway = .backward  // east arm: only towards the junction
        let byLink = try probabilities(graph)
        #expect(byLink[fwd(2)] == nil)
        #expect(Set(byLink.keys) == [fwd(3), fwd(4)])
        #expect(abs(byLink[fwd(3)]!.probability - 0.5) < 0.01)
    }

    @Test func prohibitoryTurnRestrictionIsHonoured() throws {
        var graph = PlaneRoadGraph.fourWay()
        graph.restrictions = [TurnRestriction(from: LinkID(1), via: NodeID(0), to: LinkID(3), kind: .prohibitory)]
        let byLink = try probabilities(graph)
        #expect(Set(byLink.keys) == [fwd(2), fwd(4)])
    }

    @Test func mandatoryTurnRestrictionLeavesOnlyItsTarget() throws {
        var graph = PlaneRoadGraph.fourWay()
        graph.restrictions = [TurnRestriction(from: LinkID(1), via: NodeID(0), to: LinkID(4), kind: .mandatory)]
        let branches = try model.branches(after: fwd(1), in: graph.network)
        #expect(branches.map(\.link) == [fwd(4)])
        #expect(branches[0].probability == 1)
    }

    @Test func uTurnOnlyAtADeadEnd() throws {
        let network = PlaneRoadGraph.fourWay().network
        // At the 4-way junction the U-turn back onto link 1 is legal but not offered.
        #expect(try network.successors(of: fwd(1)).contains(bwd(1)))
        #expect(try !model.branches(after: fwd(1), in: network).contains { $0.link == bwd(1) })
        // At the end of the east arm (a dead end) the U-turn is the only way on.
        let deadEnd = try model.branches(after: fwd(2), in: network)
        #expect(deadEnd == [JunctionBranch(link: bwd(2), probability: 1, turnAngle: 180, isUTurn: true)])
    }

    @Test func uTurnsOnRequestComeLastWithProbabilityZero() throws {
        let network = PlaneRoadGraph.fourWay().network
        let asked = BranchProbabilityModel(offersUTurns: true)
        let plain = try model.branches(after: fwd(1), in: network)
        let branches = try asked.branches(after: fwd(1), in: network)
        #expect(Array(branches.dropLast()) == plain)  // the others keep their probabilities and order
        #expect(branches.last == JunctionBranch(link: bwd(1), probability: 0, turnAngle: 180, isUTurn: true))
        // A dead end is unchanged: the U-turn is the only way on, with probability 1.
        #expect(try asked.branches(after: fwd(2), in: network).map(\.probability) == [1])
        // The engine offers it as a side path; the main path never takes it.
        let engine = try HorizonEngine(
            network: network, configuration: .init(branchModel: asked))
        _ = try engine.update(onRoad(fwd(1), 50, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        #expect(main.links.map(\.link).prefix(2) == [fwd(1), fwd(2)])
        let uTurn = engine.tree.children(of: main.id).first { $0.links.first?.link == bwd(1) }
        #expect(uTurn?.probability == 0 && uTurn?.turnAngle == 180)
    }

    @Test func theThroughRoadOfATJunctionKeepsTheMainPath() throws {
        // The incoming street's name goes on to the left, 65° off; the road straight on is the
        // through road of the T.
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0)
        graph.node(1, -100, 0)
        graph.node(2, 100, 0)
        graph.node(3, 42.3, 90.6)
        graph.road(1, 1, 0, name: "Unioninkatu")
        graph.road(2, 0, 2)
        graph.road(3, 0, 3, name: "Unioninkatu")
        let withoutThroughRoad = BranchProbabilityModel(throughRoadFactor: 1)
        #expect(try withoutThroughRoad.branches(after: fwd(1), in: graph.network).first?.link == fwd(3))
        let branches = try model.branches(after: fwd(1), in: graph.network)
        #expect(branches.map(\.link) == [fwd(2), fwd(3)])
        #expect(abs(branches[0].probability - 2 / (2 + 2 * 0.555)) < 0.01)  // angle(65°) = 0.555
        // Not a T: with a fourth road (a crossing) nothing is the through road.
        var crossing = graph
        crossing.node(4, 0, -100)
        crossing.road(4, 0, 4)
        #expect(try model.branches(after: fwd(1), in: crossing.network).first?.link == fwd(3))
    }

    /// Fabianinkatu in the sample map ends 40 m past a junction: straight on with the street's name,
    /// the main path went into it and turned round at its end (kamppi, kruununhaka, ullanlinna).
    private static func culDeSac(length: Double) -> PlaneRoadGraph {
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0)
        graph.node(1, -100, 0)
        graph.node(2, 25, 0)
        graph.node(3, 0, -100)
        graph.node(4, 0, -200)
        graph.node(5, 100, -100)
        graph.node(6, length, 0)
        graph.road(1, 1, 0, name: "Fabianinkatu")
        graph.road(2, 0, 2, name: "Fabianinkatu")  // straight on, then one more way to the end
        graph.road(7, 2, 6, name: "Fabianinkatu")
        graph.road(3, 0, 3)  // right, to a junction that goes on two ways
        graph.road(4, 3, 4)
        graph.road(5, 3, 5)
        return graph
    }

    @Test func aCulDeSacLosesTheMainPathToTheRoadThatGoesOn() throws {
        let graph = Self.culDeSac(length: 40)
        let neutral = BranchProbabilityModel(deadEndFactor: 1)
        #expect(try neutral.branches(after: fwd(1), in: graph.network).first?.link == fwd(2))
        let branches = try model.branches(after: fwd(1), in: graph.network)
        #expect(branches.map(\.link) == [fwd(3), fwd(2)])
        // Straight on, with the name, the T's through road, into the cul-de-sac (1 · 2 · 2 · 0.02)
        // against a right turn (0.325): 0.2 of the traffic, 0.92 without the dead end.
        #expect(abs(branches[1].probability - 0.08 / (0.08 + 0.325)) < 0.005)
        // The engine's main path turns; the cul-de-sac stays a side path, with its U-turn at the end.
        let engine = try HorizonEngine(network: graph.network, configuration: .init())
        _ = try engine.update(onRoad(fwd(1), 50, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        #expect(main.links.map(\.link).prefix(2) == [fwd(1), fwd(3)])
        let side = try #require(engine.tree.children(of: main.id).first { $0.links.first?.link == fwd(2) })
        #expect(side.links.map(\.link).prefix(3) == [fwd(2), fwd(7), bwd(7)])
    }

    @Test func aStreetEndingBeyondTheReachOrAfterAJunctionIsNoCulDeSac() throws {
        // Ending 300 m on (past the 200 m reach): a road that leads somewhere.
        #expect(try model.branches(after: fwd(1), in: Self.culDeSac(length: 300).network).first?.link == fwd(2))
        // A junction before the end: the walk stops there.
        var branching = Self.culDeSac(length: 40)
        branching.node(7, 25, 100)
        branching.road(8, 2, 7)
        #expect(try model.branches(after: fwd(1), in: branching.network).first?.link == fwd(2))
        // A loop at the end (a court's turning circle) leads somewhere: the search does not go round.
        var loop = Self.culDeSac(length: 40)
        loop.node(7, 40, 20)
        loop.road(8, 6, 7)
        loop.road(9, 7, 2)
        #expect(try model.branches(after: fwd(1), in: loop.network).first?.link == fwd(2))
        // Where every way on is a cul-de-sac, the factor cancels out: the fourWay arms end 100 m on.
        let fourWay = try model.branches(after: fwd(1), in: PlaneRoadGraph.fourWay().network)
        let neutral = try BranchProbabilityModel(deadEndFactor: 1).branches(
            after: fwd(1), in: PlaneRoadGraph.fourWay().network)
        #expect(zip(fourWay, neutral).allSatisfy { abs($0.probability - $1.probability) < 1e-9 })
    }

    @Test func uTurnsAreOfferedAtJunctionsOnlyAndTheirPathsAreLeaves() throws {
        // Side roads leave at nodes 2 and 4; nodes 1 and 3 only join two links of the street.
        let network = PlaneRoadGraph.street(count: 5, sideEvery: 2).network
        let asked = BranchProbabilityModel(offersUTurns: true)
        #expect(try asked.branches(after: fwd(1), in: network).allSatisfy { !$0.isUTurn })
        #expect(try asked.branches(after: fwd(2), in: network).last?.isUTurn == true)
        // Turning round at node 4 leads back through the junction at node 2 (150 m from the vehicle,
        // within level 2's 500 m): an ordinary level-1 path would branch there, a U-turn does not.
        let engine = try HorizonEngine(
            network: network, configuration: .init(maximumLevel: 3, branchModel: asked))
        _ = try engine.update(onRoad(fwd(3), 50, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        let uTurn = try #require(engine.tree.children(of: main.id).first { $0.links.first?.link == bwd(4) })
        #expect(uTurn.links.map(\.link).prefix(3) == [bwd(4), bwd(3), bwd(2)])
        #expect(engine.tree.children(of: uTurn.id).isEmpty)
        #expect(engine.tree.children(of: main.id).contains { $0.links.first?.link == fwd(104) })
    }

    @Test func aUTurnIsOfferedWhereATwoWayRoadGoesOnOnlyOneWay() throws {
        // Nodes 1 and 3 only join two links of the street; from node 3 on, the street is one-way.
        var graph = PlaneRoadGraph.street(count: 5, sideEvery: 2)
        for index in graph.links.indices where [4, 5].contains(graph.links[index].id.rawValue) {
            graph.links[index].oneway = .forward
        }
        let asked = BranchProbabilityModel(offersUTurns: true)
        // The last place to turn back before the one-way stretch: the U-turn, last, probability 0.
        let lastChance = try asked.branches(after: fwd(3), in: graph.network)
        #expect(lastChance.map(\.link) == [fwd(4), bwd(3)] && lastChance.last?.probability == 0)
        // Where the two-way street merely goes on, and on the one-way stretch, none.
        #expect(try asked.branches(after: fwd(1), in: graph.network).allSatisfy { !$0.isUTurn })
        #expect(try asked.branches(after: fwd(4), in: graph.network).allSatisfy { !$0.isUTurn })
        // Not without the request.
        #expect(try model.branches(after: fwd(3), in: graph.network).map(\.link) == [fwd(4)])
        // The engine makes it a side path, but the next intersection is still node 4's junction.
        let engine = try HorizonEngine(network: graph.network, configuration: .init(branchModel: asked))
        _ = try engine.update(onRoad(fwd(3), 50, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        #expect(engine.tree.children(of: main.id).contains { $0.links.first?.link == bwd(3) })
        let intersection = try #require(engine.queries?.nextIntersection())
        #expect(abs(intersection.distance - 150) < 1)
    }

    @Test func deadEndOfAOnewayOffersNothing() throws {
        var graph = PlaneRoadGraph.fourWay()
        graph.links[1].oneway = .forward
        #expect(try model.branches(after: fwd(2), in: graph.network).isEmpty)
    }

    @Test func unknownIncomingLinkIsATypedError() {
        #expect(throws: InMemoryRoadNetwork.LookupError.unknownLink(LinkID(99))) {
            try model.branches(after: fwd(99), in: PlaneRoadGraph.fourWay().network)
        }
    }
}

import Testing
import RoadMap
@testable import Horizon
import TestSupport

@Suite struct PathTreeBuildingTests {
    private func engine(_ graph: PlaneRoadGraph = .comb(), _ configuration: HorizonConfiguration = .init()) throws
        -> HorizonEngine
    {
        // The tree the look-ahead describes, built at once (the growth limit: MainPathGrowthTests),
        // without the margin for the distance driven until the next recomputation (its own test
        // below: sidePathsHoldTheirLookAheadBetweenRecomputations).
        var configuration = configuration
        configuration.mainPathGrowthPerUpdate = .infinity
        configuration.minimumUpdateDistance = 0
        return try HorizonEngine(network: graph.network, configuration: configuration)
    }

    @Test func firstMatchBuildsMainPathSidePathsPerLevelAndTheirLengths() throws {
        // Level 2 reaching 300 m (the default before issue 15 made it 500 m), so only one level-2 path.
        let engine = try engine(.comb(), .init(lookAhead: [2000, 500, 300]))
        let events = try engine.update(onRoad(fwd(1), 40, time: 0, discontinuity: true))
        let tree = engine.tree
        let main = try #require(tree.mainPath)
        #expect(engine.vehicleOffset == 40)
        #expect(main.level == 0 && main.parent == nil && main.probability == 1)
        // Main path: from the entry of the vehicle's link to at least 2000 m ahead of the vehicle
        // (links are 100 m give or take a few millimetres of geodesy).
        #expect(main.links.map(\.link) == (1...21).map { fwd(UInt64($0)) })
        #expect(main.startOffset == 0)
        #expect(abs(main.endOffset - 2100) < 1)
        // Level 1: at the junctions 0..<500 m ahead (offsets 100…500), each reaching 500 m from the vehicle.
        let level1 = tree.children(of: main.id)
        #expect(level1.map { Int(($0.branchOffset ?? 0).rounded()) } == [100, 200, 300, 400, 500])
        for side in level1 {
            let branch = side.branchOffset!
            #expect(side.level == 1 && side.parent == main.id)
            #expect(side.links.first?.link.link.rawValue == 100 + UInt64((branch / 100).rounded()))
            #expect(side.startOffset == 0)
            #expect(side.endOffset >= 500 - (branch - 40))
            #expect(side.endOffset - side.links.last!.length < 500 - (branch - 40))  // not longer than needed
            #expect(abs(side.turnAngle! + 90) < 1)
            // 0.325 (90°) · 0.25 (two classes down) against 4 (straight, same name, through road): ≈ 0.02.
            #expect(side.probability > 0.015 && side.probability < 0.025)
        }
        #expect(level1.map(\.links.count) == [2, 2, 2, 1, 1])  // 150 m reach 540 − E only for E ≤ 300
        // Level 2: only the junction 200 m ahead along the tree is within 300 m.
        let level2 = tree.paths.values.filter { $0.level == 2 }
        #expect(level2.count == 1)
        let deep = try #require(level2.first)
        #expect(deep.parent == level1[0].id && abs(deep.branchOffset! - 150) < 1)
        #expect(deep.links.map(\.link) == [fwd(301)])
        #expect(abs(deep.turnAngle! - 90) < 1)
        #expect(tree.paths.count == 7)
        // Events: the main path first, then each side path added with its links.
        #expect(
            events.prefix(3) == [
                .pathAdded(main.id), .mainPathChanged(from: nil, to: main.id),
                .linksAdded(path: main.id, links: [main.links[0]]),
            ])
        #expect(!events.contains(.reset))
        let added = events.compactMap { if case .pathAdded(let id) = $0 { return id } else { return nil } }
        #expect(Set(added) == Set(tree.paths.keys))
        var rebuilt: [PathID: [PathLink]] = [:]
        for case .linksAdded(let path, let links) in events { rebuilt[path, default: []] += links }
        #expect(rebuilt == tree.paths.mapValues(\.links))
    }

    @Test func offsetsAreContiguousFromThePathStart() throws {
        let engine = try engine()
        _ = try engine.update(onRoad(fwd(3), 10, time: 0, discontinuity: true))
        for path in engine.tree.sortedPaths {
            #expect(path.links.first?.startOffset == 0)
            for (a, b) in zip(path.links, path.links.dropFirst()) { #expect(a.endOffset == b.startOffset) }
        }
        #expect(engine.vehicleOffset == 10)
    }

    @Test func configurationChangesLengthsAndLevels() throws {
        let configuration = HorizonConfiguration(lookAhead: [1000, 250], maximumLevel: 1)
        let engine = try engine(.comb(), configuration)
        _ = try engine.update(onRoad(fwd(1), 10, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        #expect(main.links.count == 11)
        #expect(engine.tree.paths.values.allSatisfy { $0.level <= 1 })
        #expect(engine.tree.children(of: main.id).map { Int($0.branchOffset!.rounded()) } == [100, 200])
        let onlyMain = try self.engine(.comb(), HorizonConfiguration(maximumLevel: 0))
        _ = try onlyMain.update(onRoad(fwd(1), 0, time: 0, discontinuity: true))
        #expect(onlyMain.tree.paths.count == 1)
    }

    @Test func invalidConfigurationIsRejected() {
        #expect(throws: HorizonError.self) { try engine(.comb(), HorizonConfiguration(lookAhead: [])) }
        #expect(throws: HorizonError.self) { try engine(.comb(), HorizonConfiguration(maximumLevel: -1)) }
        #expect(throws: HorizonError.self) { try engine(.comb(), HorizonConfiguration(trailingLength: .nan)) }
        var negativeSideTrailing = HorizonConfiguration()
        negativeSideTrailing.sidePathTrailingLength = -1
        #expect(throws: HorizonError.self) { try engine(.comb(), negativeSideTrailing) }
        for model in [BranchProbabilityModel(deadEndFactor: 1.5), BranchProbabilityModel(deadEndReach: -1)] {
            #expect(throws: HorizonError.self) { try engine(.comb(), HorizonConfiguration(branchModel: model)) }
        }
    }

    /// A model without the cul-de-sac factor: the comb's street ends in a dead end beside its last
    /// side road, and these tests are about what the main path does once it is in one.
    private static let intoDeadEnds = HorizonConfiguration(branchModel: .init(deadEndFactor: 1))

    @Test func mainPathStopsAtADeadEndWithoutLegalUTurn() throws {
        var graph = PlaneRoadGraph.comb(count: 5)
        for index in graph.links.indices { graph.links[index].oneway = .forward }
        let engine = try engine(graph, Self.intoDeadEnds)
        _ = try engine.update(onRoad(fwd(1), 0, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        #expect(main.links.map(\.link) == (1...5).map { fwd(UInt64($0)) })
        #expect(main.links.last?.exitBranches == [])
    }

    @Test func mainPathTurnsAroundAtADeadEndThatAllowsIt() throws {
        let engine = try engine(.comb(count: 5), Self.intoDeadEnds)
        _ = try engine.update(onRoad(fwd(4), 0, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        #expect(Array(main.links.map(\.link).prefix(4)) == [fwd(4), fwd(5), bwd(5), bwd(4)])
    }

    @Test func nearlyEqualForkKeepsBothProbabilities() throws {
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0); graph.node(1, -100, 0); graph.node(2, 300, 100); graph.node(3, 300, -100)
        graph.road(1, 1, 0, highway: .primary)
        graph.road(2, 0, 2, highway: .primary)  // 18° left
        graph.road(3, 0, 3, highway: .primary)  // 18° right
        let engine = try engine(graph)
        _ = try engine.update(onRoad(fwd(1), 0, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        let side = try #require(engine.tree.children(of: main.id).first)
        let branches = main.links[0].exitBranches
        #expect(branches.count == 2)
        #expect(abs(branches[0].probability - 0.5) < 1e-6 && abs(branches[1].probability - 0.5) < 1e-6)
        #expect(main.links[1].link == branches[0].link)
        #expect(side.links[0].link == branches[1].link)
        #expect(abs(side.probability - 0.5) < 1e-6)
        #expect(abs(abs(side.turnAngle!) - 18.4) < 0.5)
    }

    @Test func turnRestrictionKeepsTheForbiddenTurnOutOfTheTree() throws {
        var graph = PlaneRoadGraph.comb()
        graph.restrictions = [TurnRestriction(from: LinkID(2), via: NodeID(2), to: LinkID(102), kind: .prohibitory)]
        let engine = try engine(graph)
        _ = try engine.update(onRoad(fwd(1), 50, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPath)
        #expect(engine.tree.child(of: main.id, at: 200) == nil)
        #expect(engine.tree.child(of: main.id, at: 100) != nil)
        #expect(main.links[1].exitBranches.map(\.link) == [fwd(3)])
        #expect(!engine.tree.paths.values.contains { $0.links.contains { $0.link == fwd(102) } })
    }

    @Test func loopOfZeroLengthLinksDoesNotHang() throws {
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0); graph.node(1, 100, 0)
        graph.road(1, 0, 1, oneway: .forward)
        graph.road(2, 1, 0, oneway: .forward) { $0.length = 0 }
        graph.road(3, 1, 0, oneway: .forward) { $0.length = 0 }
        let engine = try engine(graph)
        _ = try engine.update(onRoad(fwd(1), 0, time: 0, discontinuity: true))
        #expect(try #require(engine.tree.mainPath).endOffset >= 2000)
    }

    @Test func sidePathsHoldTheirLookAheadBetweenRecomputations() throws {
        // The default throttling recomputes after 10 m driven: a recomputation grows the side paths
        // 10 m past their 500 m, so that 9 m later, with no recomputation, the junctions within
        // 500 m of the vehicle still have their side paths, each reaching 500 m (the comb's junction
        // at 600 m lay 505 m ahead of the first fix; without the margin it had none, 496 m ahead).
        var configuration = HorizonConfiguration()
        configuration.mainPathGrowthPerUpdate = .infinity
        let engine = try HorizonEngine(network: PlaneRoadGraph.comb().network, configuration: configuration)
        _ = try engine.update(onRoad(fwd(1), 95, time: 0, discontinuity: true))
        #expect(try engine.update(onRoad(fwd(2), 4, time: 0.5)) == [])
        let vehicle = try #require(engine.vehicleOffset)
        let main = try #require(engine.tree.mainPath)
        let level1 = engine.tree.children(of: main.id)
        #expect(level1.map { Int(($0.branchOffset ?? 0).rounded()) } == [100, 200, 300, 400, 500, 600])
        for side in level1 {
            #expect((side.branchOffset ?? 0) - vehicle + side.endOffset >= 500)
        }
        #expect(configuration.growthReach(level: 1) == 510 && configuration.growthReach(level: 0) == 2000)
    }

    @Test func byDefaultLevelTwoReachesAsFarAsLevelOne() throws {
        // Issue 15: in city grids the true next 500 m often turns twice; level-2 paths reaching only
        // 300 m left most of those turns out of the tree.
        let engine = try engine()
        _ = try engine.update(onRoad(fwd(1), 40, time: 0, discontinuity: true))
        let tree = engine.tree
        let main = try #require(tree.mainPath)
        let level2 = tree.paths.values.filter { $0.level == 2 }
        #expect(level2.count == 3)
        for deep in level2 {
            let parent = try #require(deep.parent.flatMap { tree.paths[$0] })
            let start = (parent.branchOffset ?? 0) - 40 + (deep.branchOffset ?? 0)
            #expect(start < 500)
            #expect(start + deep.endOffset >= 500)
            #expect(parent.parent == main.id)
        }
    }
}

import Testing
import RoadMap
@testable import Horizon
import TestSupport

@Suite struct PathTreeUpdateTests {
    private func started(
        _ graph: PlaneRoadGraph = .comb(), route: [DirectedLink]? = nil,
        at link: DirectedLink = fwd(1), offset: Double = 40, sidePathTrailingLength: Double = 100
    ) throws -> (HorizonEngine, [HorizonEvent]) {
        // Level 2 reaching 300 m (the default before issue 15 made it 500 m): the expectations count
        // the level-2 paths of that reach. The main path grows to its whole look-ahead at once: these
        // tests read its far links (the growth limit: MainPathGrowthTests).
        var configuration = HorizonConfiguration(lookAhead: [2000, 500, 300], mainPathGrowthPerUpdate: .infinity)
        configuration.sidePathTrailingLength = sidePathTrailingLength
        let engine = try HorizonEngine(network: graph.network, configuration: configuration)
        if let route { try engine.setRoute(route) }
        let events = try engine.update(onRoad(link, offset, time: 0, discontinuity: true))
        return (engine, events)
    }

    private func removedPaths(_ events: [HorizonEvent]) -> Set<PathID> {
        Set(events.compactMap { if case .pathRemoved(let id) = $0 { return id } else { return nil } })
    }

    private func addedPaths(_ events: [HorizonEvent]) -> Set<PathID> {
        Set(events.compactMap { if case .pathAdded(let id) = $0 { return id } else { return nil } })
    }

    @Test func drivingAlongExtendsTheTreeAndTrimsBehind() throws {
        let (engine, _) = try started()
        let before = engine.tree
        let mainID = try #require(before.mainPathID)
        let passed = [100.0, 200, 300].map { before.child(of: mainID, at: $0)! }
        let kept = before.child(of: mainID, at: 400)!
        let events = try engine.update(onRoad(fwd(5), 50, time: 2, discontinuity: false))
        let main = try #require(engine.tree.mainPath)
        #expect(!events.contains(.reset))
        #expect(main.id == mainID)
        #expect(abs(engine.vehicleOffset! - 450) < 1)
        // Trailing 200 m: links 1 and 2 end before 250 m and are dropped; offsets of the rest are unchanged.
        #expect(events.contains(.linksRemoved(path: mainID, links: Array(before.mainPath!.links.prefix(2)))))
        #expect(main.links.first?.link == fwd(3))
        #expect(main.links.first == before.mainPath!.links[2])
        #expect(Array(main.links.prefix(19)) == Array(before.mainPath!.links[2...]))
        #expect(main.endOffset >= engine.vehicleOffset! + 2000)
        // Side paths whose junction is more than 100 m behind (the side paths' trailing length) are
        // removed with their children.
        let removed = Set(passed.flatMap { before.subtree(of: $0.id) })
        #expect(removed.count > passed.count)
        #expect(removedPaths(events) == removed)
        #expect(engine.tree.paths[kept.id] == kept)  // passed but within the trailing length: untouched
        // New side paths at the junctions now within 500 m, extensions reported as linksAdded.
        for offset in [600.0, 700, 800, 900] { #expect(engine.tree.child(of: mainID, at: offset) != nil) }
        #expect(engine.tree.child(of: mainID, at: 1000) == nil)
        let grown = engine.tree.child(of: mainID, at: 500)!
        #expect(grown.links.count == 2)
        #expect(events.contains(.linksAdded(path: grown.id, links: [grown.links[1]])))
        #expect(engine.tree.children(of: grown.id).count == 1)
        var replayed = before.paths
        for event in events {
            switch event {
            case .pathAdded(let id):
                replayed[id] = engine.tree.paths[id].map {
                    var p = $0; p.links = []; return p
                }
            case .pathRemoved(let id): replayed[id] = nil
            case .linksAdded(let id, let links): replayed[id]!.links += links
            case .linksRemoved(let id, let links): replayed[id]!.links.removeFirst(links.count)
            default: Issue.record("unexpected \(event)")
            }
        }
        #expect(replayed.mapValues(\.links) == engine.tree.paths.mapValues(\.links))
    }

    @Test(
        "side paths are dropped by their own trailing length, never kept longer than the main path's links"
    )
    func sidePathTrailingLength() throws {
        for (setting, keptJunctions) in [(120.0, [400.0]), (500, [300, 400]), (0, [])] {
            let (engine, _) = try started(sidePathTrailingLength: setting)
            let mainID = try #require(engine.tree.mainPathID)
            _ = try engine.update(onRoad(fwd(5), 50, time: 2, discontinuity: false))
            // The vehicle at 450 m: the main path keeps 200 m behind it whatever the setting.
            #expect(engine.tree.mainPath?.links.first?.link == fwd(3))
            let behind = engine.tree.children(of: mainID).compactMap(\.branchOffset).filter { $0 < 450 }
            #expect(behind.map { $0.rounded() }.sorted() == keptJunctions, "side_path_trailing \(setting) m")
        }
    }

    @Test func discontinuityResetsTheTree() throws {
        let (engine, _) = try started()
        let oldMain = engine.tree.mainPathID!
        let events = try engine.update(onRoad(fwd(5), 50, time: 2, discontinuity: true))
        #expect(events.first == .reset)
        let main = try #require(engine.tree.mainPath)
        #expect(main.id.rawValue > oldMain.rawValue)  // identifiers are never reused
        #expect(main.links.first?.link == fwd(5) && main.startOffset == 0 && engine.vehicleOffset == 50)
        #expect(events.contains(.mainPathChanged(from: nil, to: main.id)))
        #expect(!engine.tree.paths.keys.contains(oldMain))
    }

    @Test func leavingEveryPathResetsTheTree() throws {
        let (engine, _) = try started()
        let events = try engine.update(onRoad(fwd(330), 10, time: 2, discontinuity: false))
        #expect(events.first == .reset)
        #expect(engine.tree.mainPath?.links.first?.link == fwd(330))
    }

    @Test func offRoadEmptiesTheTreeAndUnknownKeepsIt() throws {
        let (engine, _) = try started()
        let tree = engine.tree
        #expect(try engine.update(MatchResult(time: 1, state: .unknown, discontinuity: false)) == [])
        #expect(engine.tree == tree)
        #expect(
            try engine.update(MatchResult(time: 2, state: .offRoad(point: PlaneRoadGraph.origin), discontinuity: true))
                == [.reset])
        #expect(engine.tree.paths.isEmpty && engine.vehicleOffset == nil)
        #expect(
            try engine.update(MatchResult(time: 3, state: .offRoad(point: PlaneRoadGraph.origin), discontinuity: false))
                == [])
    }

    @Test func takingASidePathMakesItTheMainPath() throws {
        let (engine, _) = try started()
        let before = engine.tree
        let oldMain = before.mainPathID!
        let side = before.child(of: oldMain, at: 100)!
        let grandchild = before.children(of: side.id)[0]
        let events = try engine.update(onRoad(fwd(101), 10, time: 2, discontinuity: false))
        #expect(!events.contains(.reset))
        #expect(events.contains(.mainPathChanged(from: oldMain, to: side.id)))
        // Everything outside the taken path's subtree is detached.
        #expect(removedPaths(events) == Set(before.paths.keys).subtracting([side.id, grandchild.id]))
        let main = try #require(engine.tree.mainPath)
        #expect(main.id == side.id && main.level == 0 && main.parent == nil && main.branchOffset == nil)
        #expect(Array(main.links.prefix(2)) == side.links)  // same offsets as before
        #expect(engine.vehicleOffset == 10)
        #expect(main.endOffset >= 2010)
        #expect(engine.tree.paths[grandchild.id]?.level == 1)
        #expect(engine.tree.paths[grandchild.id]?.parent == side.id)
        #expect(engine.tree.paths[grandchild.id]!.links.count >= 1)
    }

    /// U-turns offered on request go off the main path only (by default): a side path's
    /// junctions, grown without them, get them once a turn makes it the main path.
    @Test func aPromotedPathGetsTheUTurnsItsLevelWithheld() throws {
        var configuration = HorizonConfiguration(lookAhead: [2000, 500, 300])
        configuration.branchModel.offersUTurns = true
        let engine = try HorizonEngine(network: PlaneRoadGraph.comb().network, configuration: configuration)
        _ = try engine.update(onRoad(fwd(1), 40, time: 0, discontinuity: true))
        let side = try #require(engine.tree.child(of: engine.tree.mainPathID!, at: 100))
        // At the end of fwd(101), 150 m into the side path: the road it does not take, no U-turn.
        let turningBack = { engine.tree.children(of: side.id).first { $0.links.first?.link == bwd(101) } }
        #expect(engine.tree.children(of: side.id).count == 1 && turningBack() == nil)
        _ = try engine.update(onRoad(fwd(101), 10, time: 2, discontinuity: false))
        #expect(engine.tree.mainPathID == side.id)
        let uTurn = try #require(turningBack())
        #expect(uTurn.probability == 0 && uTurn.turnAngle == 180 && abs((uTurn.branchOffset ?? 0) - 150) < 0.5)
    }

    /// With ``HorizonConfiguration/uTurnsOffSidePaths`` a side path's junctions get their U-turns
    /// at once, without the turn that promotes it.
    @Test func uTurnsOffSidePathsOnRequest() throws {
        var configuration = HorizonConfiguration(lookAhead: [2000, 500, 300])
        configuration.branchModel.offersUTurns = true
        configuration.uTurnsOffSidePaths = true
        let engine = try HorizonEngine(network: PlaneRoadGraph.comb().network, configuration: configuration)
        _ = try engine.update(onRoad(fwd(1), 40, time: 0, discontinuity: true))
        let side = try #require(engine.tree.child(of: engine.tree.mainPathID!, at: 100))
        let uTurn = try #require(engine.tree.children(of: side.id).first { $0.links.first?.link == bwd(101) })
        #expect(uTurn.probability == 0 && uTurn.turnAngle == 180 && uTurn.level == side.level + 1)
        #expect(abs((uTurn.branchOffset ?? 0) - 150) < 0.5)
    }

    @Test func turnRestrictionAheadIsNotOfferedWhenTheTreeGrows() throws {
        var graph = PlaneRoadGraph.comb()
        graph.restrictions = [TurnRestriction(from: LinkID(9), via: NodeID(9), to: LinkID(109), kind: .prohibitory)]
        let (engine, _) = try started(graph)
        _ = try engine.update(onRoad(fwd(7), 50, time: 2, discontinuity: false))
        let mainID = engine.tree.mainPathID!
        #expect(engine.tree.child(of: mainID, at: 800) != nil)
        #expect(engine.tree.child(of: mainID, at: 900) == nil)
        #expect(engine.tree.child(of: mainID, at: 1000) != nil)
    }

    private let route = [fwd(1), fwd(2), fwd(3), fwd(103), fwd(203)]

    @Test func activeRouteBecomesTheMainPathWithSidePathsStillOffered() throws {
        let (engine, _) = try started(route: route)
        let main = try #require(engine.tree.mainPath)
        #expect(Array(main.links.map(\.link).prefix(6)) == route + [bwd(203)])
        #expect(main.links.prefix(5).map(\.routeIndex) == [0, 1, 2, 3, 4])
        #expect(main.links[5].routeIndex == nil)  // past the destination: prediction
        #expect(engine.isFollowingRoute)
        let straight = try #require(engine.tree.child(of: main.id, at: 300))
        #expect(straight.links.first?.link == fwd(4))
        #expect(straight.probability > 0.9)  // the model still prefers straight on
        #expect(engine.tree.child(of: main.id, at: 450)?.links.first?.link == fwd(303))
    }

    @Test func leavingTheRouteFallsBackToPrediction() throws {
        let (engine, _) = try started(route: route)
        let straight = engine.tree.child(of: engine.tree.mainPathID!, at: 300)!
        _ = try engine.update(onRoad(fwd(4), 20, time: 3, discontinuity: false))
        let main = try #require(engine.tree.mainPath)
        #expect(main.id == straight.id)
        #expect(!engine.isFollowingRoute)
        #expect(main.links.allSatisfy { $0.routeIndex == nil })
        #expect(Array(main.links.map(\.link).prefix(4)) == [fwd(4), fwd(5), fwd(6), fwd(7)])
    }

    @Test func settingARouteMidDriveReplacesThePathAhead() throws {
        let (engine, _) = try started()
        let mainID = engine.tree.mainPathID!
        let oldAhead = Array(engine.tree.mainPath!.links.dropFirst())
        let oldSides = Set(engine.tree.paths.keys).subtracting([mainID])
        try engine.setRoute(route)
        let events = try engine.update(onRoad(fwd(1), 45, time: 0.1, discontinuity: false))
        #expect(events.first == .linksRemoved(path: mainID, links: oldAhead))
        #expect(removedPaths(events) == oldSides)
        #expect(engine.tree.mainPathID == mainID)
        #expect(Array(engine.tree.mainPath!.links.map(\.link).prefix(5)) == route)
        #expect(engine.isFollowingRoute)
        // The junctions the route takes were grown before with the old way ahead (their side
        // paths went with the cut): where the route turns off, the old way is now a side path.
        let leftBehind = try #require(oldAhead.first { !route.contains($0.link) })
        #expect(
            engine.tree.children(of: mainID).contains {
                $0.branchOffset == leftBehind.startOffset && $0.links.first?.link == leftBehind.link
            })
        try engine.setRoute(nil)
        _ = try engine.update(onRoad(fwd(1), 46, time: 0.2, discontinuity: false))
        #expect(Array(engine.tree.mainPath!.links.map(\.link).prefix(5)) == (1...5).map { fwd(UInt64($0)) })
        #expect(!engine.isFollowingRoute)
    }

    @Test func routeThroughAForbiddenTurnIsNotFollowedThere() throws {
        var graph = PlaneRoadGraph.comb()
        graph.restrictions = [TurnRestriction(from: LinkID(3), via: NodeID(3), to: LinkID(103), kind: .prohibitory)]
        let (engine, _) = try started(graph, route: route)
        let main = try #require(engine.tree.mainPath)
        #expect(Array(main.links.map(\.link).prefix(4)) == [fwd(1), fwd(2), fwd(3), fwd(4)])
        #expect(main.links.prefix(4).map(\.routeIndex) == [0, 1, 2, nil])
        #expect(engine.tree.child(of: main.id, at: 300) == nil)  // the forbidden turn is no side path either
    }

    @Test func badRoutesAreRejectedWithTypedErrors() throws {
        var graph = PlaneRoadGraph.comb()
        graph.links[graph.links.firstIndex { $0.id == LinkID(4) }!].oneway = .forward
        let engine = try HorizonEngine(network: graph.network)
        #expect(throws: HorizonError.emptyRoute) { try engine.setRoute([]) }
        #expect(throws: HorizonError.disconnectedRoute(index: 1, from: fwd(2), to: fwd(4))) {
            try engine.setRoute([fwd(1), fwd(2), fwd(4)])
        }
        #expect(throws: HorizonError.routeAgainstOneway(index: 0, link: bwd(4))) {
            try engine.setRoute([bwd(4), bwd(3)])
        }
        #expect(engine.route == nil)
        #expect(throws: HorizonError.self) { try engine.update(onRoad(fwd(1), .nan, time: 0)) }
    }

    @Test func throttlingKeepsCheapUpdatesBetweenRecomputations() throws {
        let (engine, _) = try started()
        let tree = engine.tree
        // Within 1 s: only the vehicle offset moves.
        #expect(try engine.update(onRoad(fwd(2), 50, time: 0.5, discontinuity: false)) == [])
        #expect(abs(engine.vehicleOffset! - 150) < 1)
        #expect(engine.tree == tree)
        // Both minimums passed: full recomputation.
        #expect(try !engine.update(onRoad(fwd(3), 50, time: 2, discontinuity: false)).isEmpty)
        // After 1 s but less than 10 m from the last recomputation (at 40 m): still cheap.
        let (slow, _) = try started()
        #expect(try slow.update(onRoad(fwd(1), 45, time: 1.5, discontinuity: false)) == [])
        #expect(slow.vehicleOffset == 45 && slow.lastRecomputation?.offset == 40)
        // 11 m: recomputed (with nothing to add: the side paths had grown 10 m past their reach).
        _ = try slow.update(onRoad(fwd(1), 51, time: 1.6, discontinuity: false))
        #expect(slow.lastRecomputation?.offset == 51)
        // Zero minimums recompute on every fix.
        let eager = try HorizonEngine(
            network: PlaneRoadGraph.comb().network,
            configuration: HorizonConfiguration(
                minimumUpdateInterval: 0, minimumUpdateDistance: 0, mainPathGrowthPerUpdate: .infinity))
        _ = try eager.update(onRoad(fwd(1), 40, time: 0, discontinuity: true))
        #expect(try !eager.update(onRoad(fwd(2), 10, time: 0.1, discontinuity: false)).isEmpty)
    }

    @Test func sameInputGivesSameEvents() throws {
        let fixes = [
            onRoad(fwd(1), 40, time: 0, discontinuity: true), onRoad(fwd(3), 10, time: 1.5),
            onRoad(fwd(103), 20, time: 3), onRoad(fwd(203), 300, time: 5),
        ]
        func run() throws -> [[HorizonEvent]] {
            let engine = try HorizonEngine(network: PlaneRoadGraph.comb().network)
            return try fixes.map { try engine.update($0) }
        }
        let first = try run()
        #expect(first == (try run()))
        #expect(first.allSatisfy { !$0.isEmpty })
    }
}

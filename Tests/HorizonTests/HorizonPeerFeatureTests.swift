import Testing
import RoadMap
import TestSupport
@testable import Horizon

extension PlaneRoadGraph {
    /// A symmetric fork: link 1 runs 100 m east to node 1, where link 2 leaves 45° left (to node 2)
    /// and link 3 45° right (to node 3), both 300 m residential streets ending in dead ends.
    static func fork() -> PlaneRoadGraph {
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0)
        graph.node(1, 100, 0)
        graph.node(2, 312, 212)
        graph.node(3, 312, -212)
        graph.road(1, 0, 1)
        graph.road(2, 1, 2)
        graph.road(3, 1, 3)
        return graph
    }
}

@Suite("observer API: position, tree and most probable path without polling")
struct HorizonObserverTests {
    /// Drives along the comb's main street, one fix per 15 m, recording every observation.
    static func observe(engine: HorizonEngine) throws -> (observations: [HorizonObservation], events: [[HorizonEvent]])
    {
        var observations: [HorizonObservation] = []
        engine.addObserver { observations.append($0) }
        var returned: [[HorizonEvent]] = []
        for step in 0..<60 {
            let along = Double(step) * 15
            let link = fwd(UInt64(Int(along / 100) + 1))
            returned.append(
                try engine.update(onRoad(link, along.truncatingRemainder(dividingBy: 100), time: Double(step))))
        }
        return (observations, returned)
    }

    @Test("each update tells the position, then the tree's events as update returns them, then a changed MPP")
    func observationsFollowTheUpdates() throws {
        let engine = try HorizonEngine(network: PlaneRoadGraph.comb().network)
        let (observations, returned) = try Self.observe(engine: engine)
        let positions = observations.filter { if case .position = $0 { true } else { false } }
        #expect(positions.count == 60)
        let trees: [[HorizonEvent]] = observations.compactMap { if case .treeChanged(let e) = $0 { e } else { nil } }
        #expect(trees == returned.filter { !$0.isEmpty })
        let paths: [MostProbablePath?] = observations.compactMap {
            if case .mostProbablePathChanged(let path) = $0 { path } else { nil }
        }
        // The first update builds the main path; the vehicle passing link ends changes it again.
        #expect(paths.count >= 9, "\(paths.count) MPP changes over 9 links")
        #expect(paths.first??.links.first == fwd(1))
        if case .position(let first) = observations.first {
            #expect(first.offset == 0 && first.mainPath != nil && first.matched?.link == fwd(1))
        } else {
            Issue.record("the first observation is not the position")
        }
        // Deterministic: another engine on the same fixes tells exactly the same.
        let again = try Self.observe(engine: try HorizonEngine(network: PlaneRoadGraph.comb().network))
        #expect(again.observations == observations)
    }

    @Test("a removed observer hears nothing more; going off road empties the MPP")
    func removeAndOffRoad() throws {
        let engine = try HorizonEngine(network: PlaneRoadGraph.comb().network)
        var kept: [HorizonObservation] = []
        var removedCount = 0
        let removed = engine.addObserver { _ in removedCount += 1 }
        engine.addObserver { kept.append($0) }
        _ = try engine.update(onRoad(fwd(1), 10, time: 0))
        engine.removeObserver(removed)
        let before = removedCount
        _ = try engine.update(MatchResult(time: 1, state: .offRoad(point: PlaneRoadGraph.origin), discontinuity: false))
        #expect(removedCount == before)
        #expect(
            kept.suffix(3) == [
                .position(VehiclePosition(time: 1, matched: nil, mainPath: nil, offset: nil)),
                .treeChanged([.reset]), .mostProbablePathChanged(nil),
            ])
    }
}

@Suite("several most probable paths: splits within 5 % and the client's choice")
struct MostProbablePathSplitTests {
    @Test("a symmetric fork is a split with the other branch as alternative; choosing it re-plans the main path")
    func forkSplitAndChoice() throws {
        let engine = try HorizonEngine(network: PlaneRoadGraph.fork().network)
        _ = try engine.update(onRoad(fwd(1), 10, time: 0))
        let path = try #require(engine.mostProbablePath)
        let split = try #require(path.splits.first)
        #expect(split.incoming == fwd(1) && abs(split.distance - 90) < 0.5)
        let alternative = try #require(split.alternatives.first)
        #expect(Set([split.taken.link, alternative.link]) == [fwd(2), fwd(3)])
        #expect(abs(split.taken.probability - alternative.probability) <= 0.05)
        #expect(alternative.sidePath.flatMap { engine.tree.paths[$0]?.links.first?.link } == alternative.link)
        #expect(engine.tree.mainPath?.links.prefix(2).map(\.link) == [fwd(1), split.taken.link])

        try engine.choose(alternative, at: split)
        _ = try engine.update(onRoad(fwd(1), 12, time: 1))
        #expect(engine.tree.mainPath?.links.prefix(2).map(\.link) == [fwd(1), alternative.link])
        // The choice holds while the vehicle approaches the junction.
        _ = try engine.update(onRoad(fwd(1), 60, time: 3))
        #expect(engine.tree.mainPath?.links.prefix(2).map(\.link) == [fwd(1), alternative.link])
        #expect(throws: HorizonError.notAContinuation(incoming: fwd(1), link: bwd(1))) {
            try engine.choose(
                MostProbablePathAlternative(link: bwd(1), probability: 0, turnAngle: 180, sidePath: nil), at: split)
        }
    }

    @Test("a plain crossing (straight on 0.61, turns 0.20) has no split; a tolerance of 0.5 makes one")
    func toleranceDecides() throws {
        let network = PlaneRoadGraph.crossing().network
        let strict = try HorizonEngine(network: network)
        _ = try strict.update(onRoad(bwd(3), 10, time: 0))
        #expect(strict.mostProbablePath?.splits == [])
        var configuration = HorizonConfiguration()
        configuration.mostProbablePathTolerance = 0.5
        let loose = try HorizonEngine(network: network, configuration: configuration)
        _ = try loose.update(onRoad(bwd(3), 10, time: 0))
        #expect(loose.mostProbablePath?.splits.first?.alternatives.count == 2)
        configuration.mostProbablePathTolerance = 1.5
        #expect(throws: HorizonError.self) { try HorizonEngine(network: network, configuration: configuration) }
    }
}

@Suite("zero-probability paths and expansion levels on request")
struct ZeroProbabilityAndLevelTests {
    @Test("a forbidden left turn is a side path with probability 0 only on request, and never the main path")
    func forbiddenTurnKeptOnRequest() throws {
        // From the south arm (link 3 driven north) a restriction forbids turning west onto link 4.
        let restriction = TurnRestriction(from: LinkID(3), via: NodeID(0), to: LinkID(4), kind: .prohibitory)
        let network = PlaneRoadGraph.crossing(restrictions: [restriction]).network
        // Side paths at the crossing itself (offset 100 on the main path, the end of link 3).
        func atCrossing(_ engine: HorizonEngine) -> [HorizonPath] {
            engine.tree.paths.values.filter { $0.parent != nil && abs(($0.branchOffset ?? -1) - 100) < 0.5 }
        }
        let plain = try HorizonEngine(network: network)
        _ = try plain.update(onRoad(bwd(3), 10, time: 0))
        #expect(Set(atCrossing(plain).compactMap { $0.links.first?.link }) == [fwd(2)])

        var configuration = HorizonConfiguration()
        configuration.keepsZeroProbabilityPaths = true
        let engine = try HorizonEngine(network: network, configuration: configuration)
        _ = try engine.update(onRoad(bwd(3), 10, time: 0))
        let forbidden = try #require(atCrossing(engine).first { $0.links.first?.link == fwd(4) })
        #expect(forbidden.probability == 0 && forbidden.level == 1)
        let main = try #require(engine.tree.mainPath).links.map(\.link)
        #expect(main.prefix(2) == [bwd(3), fwd(1)])
        for (from, to) in zip(main, main.dropFirst()) {
            #expect(try network.successors(of: from).contains(to), "the main path takes \(from) → \(to)")
        }
        let branches = try #require(engine.tree.mainPath?.links.first?.exitBranches)
        #expect(
            branches.last
                == JunctionBranch(link: fwd(4), probability: 0, turnAngle: branches.last!.turnAngle, isUTurn: false))
        #expect(abs(branches.last!.turnAngle + 90) < 1, "a left turn")
    }

    @Test("paths one level below the maximum are one link long and never grow")
    func oneLinkLevel() throws {
        var configuration = HorizonConfiguration()
        configuration.maximumLevel = 0
        configuration.addsOneLinkLevel = true
        let engine = try HorizonEngine(network: PlaneRoadGraph.comb().network, configuration: configuration)
        for step in 0..<30 {
            _ = try engine.update(onRoad(fwd(UInt64(step / 5 + 1)), Double(step % 5) * 20, time: Double(step) * 2))
        }
        let sides = engine.tree.paths.values.filter { $0.parent != nil }
        #expect(!sides.isEmpty)
        #expect(
            sides.allSatisfy { $0.level == 1 && $0.links.count == 1 }, "\(sides.map { ($0.level, $0.links.count) })")
        #expect(engine.tree.children(of: sides[0].id).isEmpty)
    }

    @Test("any level: the comb's side streets branch at level 2, and maximumLevel 1 stops before")
    func deeperLevels() throws {
        var configuration = HorizonConfiguration()
        configuration.maximumLevel = 1
        let shallow = try HorizonEngine(network: PlaneRoadGraph.comb().network, configuration: configuration)
        _ = try shallow.update(onRoad(fwd(1), 10, time: 0))
        #expect(shallow.tree.paths.values.map(\.level).max() == 1)
        configuration.maximumLevel = 5
        let deep = try HorizonEngine(network: PlaneRoadGraph.comb().network, configuration: configuration)
        _ = try deep.update(onRoad(fwd(1), 10, time: 0))
        #expect(deep.tree.paths.values.map(\.level).max() == 2)
    }
}

import Foundation
import Testing
import RoadMap
import TestSupport
@testable import Horizon

extension PlaneRoadGraph {
    /// A narrow fork: link 1 runs 100 m east to node 1, where link 2 goes straight on (the main
    /// road, secondary) and link 3 leaves `angle` degrees to the right (residential), both 300 m
    /// to dead ends.
    static func narrowFork(angle: Double = 15) -> PlaneRoadGraph {
        var graph = PlaneRoadGraph()
        let radians = angle * .pi / 180
        graph.node(0, 0, 0)
        graph.node(1, 100, 0)
        graph.node(2, 400, 0)
        graph.node(3, 100 + 300 * cos(radians), -300 * sin(radians))
        graph.road(1, 0, 1, highway: .secondary, name: "Main")
        graph.road(2, 1, 2, highway: .secondary, name: "Main")
        graph.road(3, 1, 3, name: "Side")
        return graph
    }
}

@Suite("unsure fork: the vehicle stays on the main path while the matcher is unsure just past a narrow fork")
struct UnsureForkTests {
    /// An engine whose vehicle drove link 1 to 90 m (the main path goes straight on, link 3 a side
    /// path at the fork 100 m along it).
    static func approaching(
        _ graph: PlaneRoadGraph = .narrowFork(), rule: UnsureFork? = UnsureFork()
    ) throws -> HorizonEngine {
        var configuration = HorizonConfiguration()
        configuration.unsureFork = rule
        let engine = try HorizonEngine(network: graph.network, configuration: configuration)
        _ = try engine.update(onRoad(fwd(1), 50, time: 0, discontinuity: true))
        _ = try engine.update(onRoad(fwd(1), 90, time: 1))
        #expect(engine.tree.mainPath?.links.map(\.link).prefix(2) == [fwd(1), fwd(2)])
        return engine
    }

    static func position(_ link: DirectedLink, _ offset: Double, _ confidence: Double) -> MatchedPosition {
        MatchedPosition(link: link, offset: offset, point: PlaneRoadGraph.origin, confidence: confidence)
    }

    static func match(_ position: MatchedPosition, time: Double = 2) -> MatchResult {
        MatchResult(time: time, state: .onRoad(position), discontinuity: false)
    }

    /// The side path that holds link 3.
    static func sidePath(of engine: HorizonEngine) -> PathID? {
        engine.tree.paths.values.first { $0.parent != nil && $0.links.first?.link == fwd(3) }?.id
    }

    @Test("matched 8 m onto the side road with the main road at half its probability: held on the main road")
    func heldWhileUnsure() throws {
        let engine = try Self.approaching()
        let main = try #require(engine.tree.mainPathID)
        let side = try #require(Self.sidePath(of: engine))
        let onMain = Self.position(fwd(2), 7, 0.35)
        let events = try engine.update(
            Self.match(Self.position(fwd(3), 8, 0.6)), candidates: [Self.position(fwd(3), 8, 0.6), onMain])
        #expect(engine.tree.mainPathID == main)
        #expect(engine.vehiclePosition == onMain)
        #expect(abs(try #require(engine.vehicleOffset) - 107) < 0.01)
        // Nothing thrown away: the side road stays in the tree beside the vehicle.
        #expect(!events.contains { if case .pathRemoved = $0 { true } else { false } })
        #expect(engine.tree.paths[side] != nil)
        // The matcher comes back to the main road: a plain move, no new tree.
        let back = try engine.update(Self.match(Self.position(fwd(2), 15, 0.7), time: 3))
        #expect(engine.tree.mainPathID == main && !back.contains(.reset))
    }

    @Test("the vehicle turns onto the side road when the matcher is sure, past the distance, or not told")
    func turnsOtherwise() throws {
        let matched = Self.position(fwd(3), 8, 0.8)
        let cases: [(String, MatchedPosition, [MatchedPosition])] = [
            ("main road below 0.3 of the side road's probability", matched, [matched, Self.position(fwd(2), 7, 0.2)]),
            ("no candidates", matched, []),
            ("30 m past the fork", Self.position(fwd(3), 30, 0.6), [Self.position(fwd(2), 29, 0.4)]),
        ]
        for (label, position, candidates) in cases {
            let engine = try Self.approaching()
            let side = try #require(Self.sidePath(of: engine))
            _ = try engine.update(Self.match(position), candidates: candidates)
            #expect(engine.tree.mainPathID == side, "\(label)")
            #expect(engine.vehiclePosition == position, "\(label)")
        }
    }

    @Test("a fork wider than the rule's angle, or the rule switched off, turns at once")
    func wideForkOrNoRuleTurns() throws {
        for (graph, rule) in [(PlaneRoadGraph.narrowFork(angle: 45), UnsureFork()), (.narrowFork(), nil)] {
            let engine = try Self.approaching(graph, rule: rule)
            let side = try #require(Self.sidePath(of: engine))
            _ = try engine.update(
                Self.match(Self.position(fwd(3), 8, 0.6)), candidates: [Self.position(fwd(2), 7, 0.4)])
            #expect(engine.tree.mainPathID == side)
        }
    }

    @Test("the vehicle is never held on a main-path link behind the one it is on")
    func neverHeldBehind() throws {
        // The main road past the fork: a 10 m link 2, then link 4.
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0)
        graph.node(1, 100, 0)
        graph.node(2, 110, 0)
        graph.node(4, 400, 0)
        graph.node(3, 100 + 300 * cos(.pi / 12), -300 * sin(.pi / 12))
        graph.road(1, 0, 1, highway: .secondary, name: "Main")
        graph.road(2, 1, 2, highway: .secondary, name: "Main")
        graph.road(4, 2, 4, highway: .secondary, name: "Main")
        graph.road(3, 1, 3, name: "Side")
        let engine = try Self.approaching(graph)
        _ = try engine.update(onRoad(fwd(4), 5, time: 2))
        let main = try #require(engine.tree.mainPathID)
        let side = try #require(Self.sidePath(of: engine))
        // Matched 12 m onto the side road; the main road's state lies on link 2, behind the vehicle.
        _ = try engine.update(
            Self.match(Self.position(fwd(3), 12, 0.6), time: 3), candidates: [Self.position(fwd(2), 8, 0.4)])
        #expect(engine.tree.mainPathID == side && engine.tree.mainPathID != main)
        // The same state ahead of the vehicle, on link 4: held.
        let again = try Self.approaching(graph)
        _ = try again.update(onRoad(fwd(4), 5, time: 2))
        let held = Self.position(fwd(4), 8, 0.4)
        _ = try again.update(Self.match(Self.position(fwd(3), 12, 0.6), time: 3), candidates: [held])
        #expect(again.vehiclePosition == held)
    }

    @Test("settings out of range are refused by name")
    func invalidSettings() {
        for rule in [UnsureFork(distance: -1), UnsureFork(angle: 200), UnsureFork(ratio: 1.5)] {
            var configuration = HorizonConfiguration()
            configuration.unsureFork = rule
            #expect(throws: HorizonError.self) { try configuration.validate() }
        }
    }
}

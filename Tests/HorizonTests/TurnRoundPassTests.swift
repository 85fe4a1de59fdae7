import Testing
import RoadMap
@testable import Horizon
import TestSupport

/// A vehicle that stops at a signal and turns round there has not passed it; one that drove past it
/// and turned round beyond has. Road 1 runs 100 m east to a junction with a signal at its node
/// (offset 100 of link 1); road 2 goes on 100 m east from there to a crossing street (roads 3 and
/// 4, north and south). All are two-way. The tracker is given the signal while it is on the main
/// path; after the U-turn it would lie behind the vehicle, first seen there, which raises nothing
/// anyway, so the new main path's objects are left empty.
@Suite("turning round at a point object: passed only where the vehicle got past it")
struct TurnRoundPassTests {
    static func street() -> InMemoryRoadNetwork {
        var graph = PlaneRoadGraph()
        graph.node(1, 0, 0)
        graph.node(2, 100, 0)
        graph.node(3, 200, 0)
        graph.node(4, 200, 100)
        graph.node(5, 200, -100)
        graph.road(1, 1, 2, highway: .secondary)
        graph.road(2, 2, 3, highway: .secondary)
        graph.road(3, 3, 4, highway: .secondary)
        graph.road(4, 3, 5, highway: .secondary)
        return graph.network
    }

    static let east1 = DirectedLink(LinkID(1), .forward)
    static let west1 = DirectedLink(LinkID(1), .backward)
    static let east2 = DirectedLink(LinkID(2), .forward)
    static let west2 = DirectedLink(LinkID(2), .backward)
    static let signal = RoadObject(id: RoadObjectID(rawValue: "traffic_signals:L1@10000"), type: .trafficSignals)

    /// The signal where the engine's main path has it, as `RoadObjectTracker` is given it.
    static func signal(on engine: HorizonEngine) throws -> [PathRoadObject] {
        let main = try #require(engine.tree.mainPath)
        let start = try #require(main.links.first { $0.link == east1 }).startOffset + 100
        return [PathRoadObject(object: signal, path: main.id, start: start, end: start)]
    }

    static func names(_ events: [RoadObjectEvent]) -> [String] { RoadObjectTrackerTravelTests.names(events) }

    /// An engine and a tracker that watched the signal from 90 m along road 1 at 0 s to `reached`
    /// at 1 s (before the node at 100 m).
    static func approach(to reached: Double) throws -> (HorizonEngine, RoadObjectTracker) {
        let engine = try HorizonEngine(network: street())
        var tracker = RoadObjectTracker()
        _ = try engine.update(onRoad(east1, 90, time: 0))
        _ = tracker.update(mainPathObjects: try signal(on: engine), vehicleOffset: engine.vehicleOffset)
        _ = try engine.update(onRoad(east1, reached, time: 1))
        let events = tracker.update(mainPathObjects: try signal(on: engine), vehicleOffset: engine.vehicleOffset)
        #expect(names(events).isEmpty)
        return (engine, tracker)
    }

    @Test("turned round 3 m before the signal's node: nothing passed, though 4.6 m were driven")
    func turnedRoundBefore() throws {
        var (engine, tracker) = try Self.approach(to: 97)
        // Next fix: on link 1 westward, 3.5 m from the node (the reverse of the vehicle's link).
        _ = try engine.update(onRoad(Self.west1, 3.5, time: 2))
        #expect(engine.forwardTravel(4.6) == 0)
        let events = tracker.update(
            mainPathObjects: [], vehicleOffset: engine.vehicleOffset, travelled: engine.forwardTravel(4.6))
        #expect(Self.names(events).isEmpty)
        // Without the turn round known, 4.6 m driven would have carried the vehicle past the signal 3 m ahead.
        var unaware = RoadObjectTracker()
        _ = unaware.update(
            mainPathObjects: [PathRoadObject(object: Self.signal, path: PathID(rawValue: 1), start: 100, end: 100)],
            vehicleOffset: 97)
        #expect(Self.names(unaware.update(mainPathObjects: [], vehicleOffset: 3.5, travelled: 4.6)).count == 2)
    }

    @Test("turned round 3 m past the node, on road 2: the signal was passed")
    func turnedRoundBeyond() throws {
        var (engine, tracker) = try Self.approach(to: 98)
        // Next fix: on road 2 westward, 1 m back from where the vehicle turned 4 m past the node.
        _ = try engine.update(onRoad(Self.west2, 97, time: 2))
        #expect(abs(engine.forwardTravel(4) - 5) < 1e-6)
        let events = tracker.update(
            mainPathObjects: [], vehicleOffset: engine.vehicleOffset, travelled: engine.forwardTravel(4))
        #expect(Self.names(events) == ["entered traffic_signals:L1@10000", "exited traffic_signals:L1@10000"])
    }

    @Test("turned round 4 m before a signal on a U-turn path offered at the crossing: not passed")
    func turnedRoundOntoAUTurnPath() throws {
        // U-turns offered (`--u-turns`): at the crossing (node 3) the main path along road 2 has a
        // U-turn side path onto road 2 westward, so turning round mid-road puts the vehicle on it.
        var configuration = HorizonConfiguration()
        configuration.branchModel.offersUTurns = true
        let engine = try HorizonEngine(network: Self.street(), configuration: configuration)
        _ = try engine.update(onRoad(Self.east2, 90, time: 0))
        _ = try engine.update(onRoad(Self.east2, 95, time: 1))
        let main = try #require(engine.tree.mainPath)
        let start = try #require(main.links.first { $0.link == Self.east2 }).startOffset + 99
        let signal = RoadObject(id: RoadObjectID(rawValue: "traffic_signals:L2@9900"), type: .trafficSignals)
        var tracker = RoadObjectTracker()
        _ = tracker.update(
            mainPathObjects: [PathRoadObject(object: signal, path: main.id, start: start, end: start)],
            vehicleOffset: engine.vehicleOffset)
        // Next fix: road 2 westward 4 m from the crossing (turned round at 96 m, 1 m back since).
        _ = try engine.update(onRoad(Self.west2, 4, time: 2))
        #expect(abs(engine.travelAlongPreviousMainPath(6) - 1) < 1e-6)
        #expect(Self.names(tracker.update(mainPathObjects: [], after: engine, driven: 6)).isEmpty)
    }

    @Test("no turn round: forwardTravel is the distance driven")
    func straightOn() throws {
        let engine = try HorizonEngine(network: Self.street())
        _ = try engine.update(onRoad(Self.east1, 90, time: 0))
        _ = try engine.update(onRoad(Self.east2, 5, time: 1))
        #expect(engine.forwardTravel(15) == 15)
    }

    @Test("a point is passed 1 m beyond it: placed 0.7 m past a signal and then turning round is no pass")
    func passMargin() {
        let at100 = [PathRoadObject(object: Self.signal, path: PathID(rawValue: 1), start: 100, end: 100)]
        var tracker = RoadObjectTracker()
        _ = tracker.update(mainPathObjects: at100, vehicleOffset: 95)
        #expect(Self.names(tracker.update(mainPathObjects: at100, vehicleOffset: 100.7)).isEmpty)
        #expect(Self.names(tracker.update(mainPathObjects: [], vehicleOffset: 4, travelled: 0)).isEmpty)

        var onward = RoadObjectTracker()
        _ = onward.update(mainPathObjects: at100, vehicleOffset: 95)
        _ = onward.update(mainPathObjects: at100, vehicleOffset: 100.7)
        #expect(Self.names(onward.update(mainPathObjects: at100, vehicleOffset: 101.2)).count == 2)

        var exact = RoadObjectTracker(passMargin: 0)
        _ = exact.update(mainPathObjects: at100, vehicleOffset: 95)
        #expect(Self.names(exact.update(mainPathObjects: at100, vehicleOffset: 100.7)).count == 2)
    }

    @Test("turned off 5 m ahead onto a side path: the travel along the path left stops 2 m past the junction")
    func turnedOffOntoASidePath() throws {
        let engine = try HorizonEngine(network: Self.street())
        _ = try engine.update(onRoad(Self.east2, 90, time: 0))
        _ = try engine.update(onRoad(Self.east2, 95, time: 1))
        let main = try #require(engine.tree.mainPath)
        // The crossing street the main path does not take at node 3.
        let taken = try #require(main.links.first { $0.link.link == LinkID(3) || $0.link.link == LinkID(4) })
        let other = DirectedLink(taken.link.link == LinkID(3) ? LinkID(4) : LinkID(3), .forward)
        _ = try engine.update(onRoad(other, 4, time: 2))
        #expect(abs(engine.travelAlongPreviousMainPath(10) - 7) < 0.01)
        #expect(engine.forwardTravel(10) == 10)
        // Straight on along the main path instead: the whole distance.
        let straight = try HorizonEngine(network: Self.street())
        _ = try straight.update(onRoad(Self.east2, 90, time: 0))
        _ = try straight.update(onRoad(Self.east2, 95, time: 1))
        _ = try straight.update(onRoad(taken.link, 4, time: 2))
        #expect(straight.travelAlongPreviousMainPath(10) == 10)
    }
}

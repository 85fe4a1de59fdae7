import ADASISv2
import GNSS
import Horizon
import RoadMap
import TestSupport
import Testing
@testable import ADASISProvider

/// A main road east with dead ends north, a "comb": more side paths than ADASIS v2 has path
/// indices. Node 1 at x = 0, junction nodes 100 + k at x = 100 + 8k (k < ``teeth``), node 2 at
/// x = 1000; link 1 to the first junction, links 100 + k between junctions, link 2 to the end;
/// dead end 300 + k, 40 m north of junction k.
enum CombRoad {
    /// The dead ends.
    static let teeth = 61

    /// The comb as a graph, for a test to add roads to; `toothClass` gives each dead end's road
    /// class (residential by default).
    static func graph(toothClass: (Int) -> HighwayClass = { _ in .residential }) -> PlaneRoadGraph {
        var graph = PlaneRoadGraph()
        graph.node(1, 0, 0)
        for tooth in 0..<teeth {
            let x = 100 + 8 * Double(tooth)
            graph.node(Int64(100 + tooth), x, 0)
            graph.node(Int64(300 + tooth), x, 40)
        }
        graph.node(2, 1000, 0)
        graph.road(1, 1, 100, highway: .secondary, name: "Main")
        for tooth in 0..<(teeth - 1) {
            graph.road(UInt64(100 + tooth), Int64(100 + tooth), Int64(101 + tooth), highway: .secondary, name: "Main")
        }
        graph.road(2, Int64(100 + teeth - 1), 2, highway: .secondary, name: "Main")
        for tooth in 0..<teeth {
            graph.road(
                UInt64(300 + tooth), Int64(100 + tooth), Int64(300 + tooth), highway: toothClass(tooth),
                name: "Side \(tooth)")
        }
        return graph
    }

    /// The main-road link under `x` metres and the offset on it.
    static func place(_ x: Double) -> (DirectedLink, Double) {
        if x < 100 { return (DirectedLink(LinkID(1), .forward), x) }
        let tooth = Int((x - 100) / 8)
        if tooth >= teeth - 1 { return (DirectedLink(LinkID(2), .forward), x - (100 + 8 * Double(teeth - 1))) }
        return (DirectedLink(LinkID(UInt64(100 + tooth)), .forward), x - (100 + 8 * Double(tooth)))
    }

    /// One second of a drive: the vehicle matched at `place` at `second` s, moving at `speed`, goes
    /// through `engine` and `provider`, then the provider's ten ticks of that second; their frames.
    static func drive(
        _ engine: HorizonEngine, _ provider: ADASISProvider, second: Int, at place: (DirectedLink, Double),
        speed: Double
    ) throws -> [ProviderFrame] {
        let time = Double(second)
        let match = MatchResult(
            time: time,
            state: .onRoad(
                MatchedPosition(link: place.0, offset: place.1, point: PlaneRoadGraph.origin, confidence: 1)),
            discontinuity: false)
        let events = try engine.update(match)
        provider.ingest(
            fix: GNSSFix(time: time, latitude: 60.17, longitude: 24.94, speed: speed), match: match,
            tree: engine.tree, vehicleOffset: engine.vehicleOffset, events: events, routeActive: false)
        return (0..<10).flatMap { provider.tick(at: time + Double($0) / 10) }
    }

    /// The side paths of `engine`'s main path that leave it more than `distance` ahead of the vehicle.
    static func sidePathsAhead(_ engine: HorizonEngine, beyond distance: Double = 0) throws -> [HorizonPath] {
        let vehicle = try #require(engine.vehicleOffset)
        let main = try #require(engine.tree.mainPath)
        return engine.tree.paths.values.filter { $0.parent == main.id && ($0.branchOffset ?? 0) > vehicle + distance }
    }

    /// Checks that every side path of `engine`'s main path beyond `distance` of the vehicle has a
    /// path index from `provider`, and that `receiver` holds it below its main path with a SEGMENT;
    /// at least `count` of them.
    static func expectSidePathsHeld(
        _ engine: HorizonEngine, _ provider: ADASISProvider, _ receiver: HorizonReconstructor,
        beyond distance: Double = 0, count: Int = 10
    ) throws {
        let ahead = try sidePathsAhead(engine, beyond: distance)
        #expect(ahead.count >= count)
        let mainIndex = try #require(receiver.horizon.mainPathIndex)
        for path in ahead {
            let index = try #require(
                provider.pathIndex(of: path.id), "side path at \(path.branchOffset ?? -1) m has no index")
            let held = try #require(receiver.horizon.paths[index], "index \(index) not held by the receiver")
            #expect(held.parent == mainIndex)
            #expect(!held.segments.isEmpty, "index \(index): no SEGMENT")
        }
    }
}

import Testing
import RoadMap
@testable import Horizon
import TestSupport

/// `HorizonConfiguration.mainPathGrowthPerUpdate`: after a new tree or a turn onto a side path the
/// main path holds the side paths' look-ahead at once and reaches its own over the next updates.
@Suite struct MainPathGrowthTests {
    /// "Main" east, links 1…30 of 100 m; at node 3 "Side" leaves north, links 401…430 of 100 m.
    static func tee() -> PlaneRoadGraph {
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0)
        for i in 1...30 {
            graph.node(Int64(i), Double(i) * 100, 0)
            graph.road(UInt64(i), Int64(i - 1), Int64(i), highway: .secondary, name: "Main")
        }
        for i in 1...30 {
            graph.node(Int64(400 + i), 300, Double(i) * 100)
            graph.road(UInt64(400 + i), i == 1 ? 3 : Int64(400 + i - 1), Int64(400 + i), name: "Side")
        }
        return graph
    }

    /// Metres of the main path ahead of the vehicle.
    static func ahead(_ engine: HorizonEngine) throws -> Double {
        try #require(engine.tree.mainPath).endOffset - (engine.vehicleOffset ?? 0)
    }

    /// Updates at the same place, one a second from `time`, until the main path reaches `reach`
    /// metres ahead; returns how far ahead it reached after each update.
    static func standStill(
        _ engine: HorizonEngine, on link: DirectedLink, at offset: Double, from time: Double, until reach: Double
    ) throws -> [Double] {
        var reached: [Double] = []
        for step in 0..<20 where reached.last.map({ $0 < reach }) ?? true {
            #expect(try !engine.update(onRoad(link, offset, time: time + Double(step))).isEmpty)
            reached.append(try ahead(engine))
        }
        return reached
    }

    @Test("a new tree holds the side paths' look-ahead and 300 m more, then grows 300 m an update, standing still too")
    func newTree() throws {
        let engine = try HorizonEngine(network: Self.tee().network)
        _ = try engine.update(onRoad(fwd(1), 40, time: 0, discontinuity: true))
        let first = try Self.ahead(engine)
        #expect(first >= 800 && first < 900)  // 500 + 300 m, to the end of a 100 m link
        // The side street at 260 m is there at once.
        #expect(engine.tree.child(of: engine.tree.mainPathID!, at: 300)?.links.first?.link == fwd(401))
        let reached = try Self.standStill(engine, on: fwd(1), at: 40, from: 1, until: 2000)
        #expect(reached.count <= 4 && reached.last! >= 2000)
        for (before, after) in zip([first] + reached, reached) {
            #expect(after > before && after - before <= 300 + 100)  // whole links of 100 m
        }
        // Caught up: the throttle holds again while the vehicle stands.
        #expect(try engine.update(onRoad(fwd(1), 40, time: 30)) == [])
    }

    @Test("a turn onto a side path: the new main path holds 800 m ahead at once and reaches 2000 m within four updates")
    func turnOntoSidePath() throws {
        let engine = try HorizonEngine(network: Self.tee().network)
        _ = try engine.update(onRoad(fwd(1), 40, time: 0, discontinuity: true))
        _ = try Self.standStill(engine, on: fwd(1), at: 40, from: 1, until: 2000)
        let side = try #require(engine.tree.child(of: engine.tree.mainPathID!, at: 300))
        _ = try engine.update(onRoad(fwd(401), 10, time: 60))
        #expect(engine.tree.mainPathID == side.id)
        let atTurn = try Self.ahead(engine)
        #expect(atTurn >= 800 && atTurn < 2000)
        let reached = try Self.standStill(engine, on: fwd(401), at: 10, from: 61, until: 2000)
        #expect(reached.count <= 4 && reached.last! >= 2000)
    }

    @Test("grown at once (.infinity), the first fix holds the whole look-ahead; the limit must be positive")
    func atOnce() throws {
        let engine = try HorizonEngine(
            network: Self.tee().network, configuration: .init(mainPathGrowthPerUpdate: .infinity))
        _ = try engine.update(onRoad(fwd(1), 40, time: 0, discontinuity: true))
        #expect(try Self.ahead(engine) >= 2000)
        for bad in [0, -1, Double.nan] {
            #expect(throws: HorizonError.self) {
                try HorizonEngine(network: Self.tee().network, configuration: .init(mainPathGrowthPerUpdate: bad))
            }
        }
    }
}

import Testing
import RoadMap
@testable import Horizon
import TestSupport

/// A main path that comes round a block to the link the vehicle turned onto: one-way link 1 runs
/// east to junction J; straight on, links 3, 4, 5 and 7 go round a 200 m block back to J from the
/// south, and straight on again is link 2, north. Link 2 is also the left turn at J. The main path
/// holds link 2 twice: as its own side path at J (100 m from link 1's start) and 900 m ahead.
@Suite("a looping main path: the vehicle's link counts where the vehicle can have reached it")
struct LoopingMainPathTests {
    static func block() -> InMemoryRoadNetwork {
        var graph = PlaneRoadGraph()
        graph.node(1, 0, 0)
        graph.node(2, 100, 0)  // J
        graph.node(3, 300, 0)
        graph.node(4, 300, -200)
        graph.node(5, 100, -200)
        graph.node(6, 100, 200)
        graph.road(1, 1, 2, highway: .secondary, oneway: .forward)
        graph.road(2, 2, 6, highway: .secondary, oneway: .forward)
        graph.road(3, 2, 3, highway: .secondary, oneway: .forward)
        graph.road(4, 3, 4, highway: .secondary, oneway: .forward)
        graph.road(5, 4, 5, highway: .secondary, oneway: .forward)
        graph.road(7, 5, 2, highway: .secondary, oneway: .forward)
        return graph.network
    }

    static let link2 = DirectedLink(LinkID(2), .forward)

    /// An engine that placed the vehicle 90 m along link 1 at 1 s, with the main path round the block.
    static func engine() throws -> HorizonEngine {
        let engine = try HorizonEngine(network: block())
        _ = try engine.update(onRoad(DirectedLink(LinkID(1), .forward), 50, time: 0))
        _ = try engine.update(onRoad(DirectedLink(LinkID(1), .forward), 90, time: 1))
        let main = try #require(engine.tree.mainPath)
        #expect(main.links.map(\.link.link.rawValue).prefix(6) == [1, 3, 4, 5, 7, 2])
        return engine
    }

    @Test("turning left at J a second later: the side path at J, not the loop 900 m ahead")
    func turnedAtTheJunction() throws {
        let engine = try Self.engine()
        _ = try engine.update(onRoad(Self.link2, 5, time: 2))
        let main = try #require(engine.tree.mainPath)
        #expect(main.links.first?.link == Self.link2)
        #expect(engine.vehicleOffset == 5)
    }

    @Test("on link 2 after 20 s without a fix: round the block is within reach, the left turn at J shorter")
    func roundTheBlock() throws {
        let engine = try Self.engine()
        _ = try engine.update(onRoad(Self.link2, 5, time: 21))
        // Both ways reach link 2 in 20 s; the vehicle is placed on the one 800 m shorter, so nothing
        // round the block is taken as driven past.
        let main = try #require(engine.tree.mainPath)
        #expect(main.links.first?.link == Self.link2)
        #expect(engine.vehicleOffset == 5)
    }

    @Test("driving round the block: past J on link 3, the side path at J is behind and link 2 ahead is the main path's")
    func drivenRoundTheBlock() throws {
        let engine = try Self.engine()
        let before = try #require(engine.tree.mainPathID)
        _ = try engine.update(onRoad(DirectedLink(LinkID(3), .forward), 50, time: 5))
        _ = try engine.update(onRoad(DirectedLink(LinkID(5), .forward), 100, time: 30))
        _ = try engine.update(onRoad(Self.link2, 5, time: 45))
        #expect(engine.tree.mainPathID == before)
        #expect(try #require(engine.vehicleOffset) > 900)
    }
}

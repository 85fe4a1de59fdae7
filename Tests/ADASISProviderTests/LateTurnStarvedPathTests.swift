import ADASISv2
import GNSS
import Horizon
import RoadMap
import TestSupport
import Testing
@testable import ADASISProvider

/// A side path whose own side paths went stub-only (no index free), which the vehicle turned
/// into while the matcher still placed it on the main road past the junction: once the matcher
/// finds the turn, that side path is the main path and its junctions are ahead, and they get
/// their indices and content. Until stop 34 a revival that ran while the vehicle seemed past the
/// junction forgot them, and they stayed stub-only for as long as the path was in the tree
/// (kruununhaka, noisy, 134–170 s: the true next 500 m on no path a receiver held).
///
/// The comb of ``CombRoad`` (61 dead ends north of a main road, one every 8 m from
/// 100 m) with a long road south at 300 m, "Branch", that has a dead end east every 10 m. The
/// vehicle is matched on the main road at 10 m/s up to 390 m, stands there 20 s (the indices of
/// the dead ends left behind come back), then is matched on Branch 90 m south.
@Suite("a late turn into a side path with starved junctions")
struct LateTurnStarvedPathTests {
    static let branchTeeth = 50

    static func network() -> InMemoryRoadNetwork {
        var graph = CombRoad.graph()
        // Branch leaves the main road at node 125 (x = 300): link 500 to y = -20, then links
        // 501 + j of 10 m, each junction with a dead end 30 m east.
        for tooth in 0..<branchTeeth {
            let y = -20 - 10 * Double(tooth)
            graph.node(Int64(500 + tooth), 300, y)
            graph.node(Int64(700 + tooth), 330, y)
            graph.road(UInt64(700 + tooth), Int64(500 + tooth), Int64(700 + tooth), name: "East \(tooth)")
        }
        graph.node(3, 300, -600)
        graph.road(500, 125, 500, highway: .secondary, name: "Branch")
        for tooth in 0..<(branchTeeth - 1) {
            graph.road(UInt64(501 + tooth), Int64(500 + tooth), Int64(501 + tooth), highway: .secondary, name: "Branch")
        }
        graph.road(3, Int64(500 + branchTeeth - 1), 3, highway: .secondary, name: "Branch")
        return graph.network
    }

    /// The Branch link `distance` metres south of the main road and the offset on it.
    static func onBranch(_ distance: Double) -> (DirectedLink, Double) {
        if distance < 20 { return (DirectedLink(LinkID(500), .forward), distance) }
        let link = Int((distance - 20) / 10)
        return (DirectedLink(LinkID(UInt64(501 + link)), .forward), distance - 20 - 10 * Double(link))
    }

    @Test("the side paths ahead on the path turned into hold indices and content on the receiver")
    func lateTurn() throws {
        let network = Self.network()
        let engine = try HorizonEngine(network: network)
        let provider = ADASISProvider(configuration: ProviderConfiguration(), network: network)
        var receiver = HorizonReconstructor(configuration: .init(trailingLength: 200))
        var starvedBeforeTurn = 0
        for second in 0...65 {
            let time = Double(second)
            let place: (DirectedLink, Double)
            let speed: Double
            switch second {
            case ..<37: (place, speed) = (CombRoad.place(20 + 10 * time), 10)
            case ..<57: (place, speed) = (CombRoad.place(390), 0)
            default: (place, speed) = (Self.onBranch(90 + 5 * (time - 57)), 5)
            }
            if second == 57 {
                // Branch's own side paths went out stub-only while it was a side path.
                let branch = try #require(
                    engine.tree.paths.values.first { $0.level == 1 && $0.links.first?.link.link == LinkID(500) })
                starvedBeforeTurn = engine.tree.paths.values.count {
                    $0.parent == branch.id && provider.pathIndex(of: $0.id) == nil
                }
            }
            for frame in try CombRoad.drive(engine, provider, second: second, at: place, speed: speed) {
                receiver.apply(frame.message, time: frame.time)
            }
        }
        #expect(starvedBeforeTurn >= 10, "Branch's side paths had indices before the turn: the scenario starves none")
        let main = try #require(engine.tree.mainPath)
        #expect(main.links.contains { $0.link.link == LinkID(510) }, "the main path is not Branch")
        try CombRoad.expectSidePathsHeld(engine, provider, receiver, beyond: 5)
    }
}

import RoadMap
import TestSupport
import Testing

@testable import Horizon

/// A network whose objects change underneath the engine (as traffic laid over the map does).
private final class SwitchedNetwork: RoadNetwork {
    var current: any RoadNetwork
    init(_ current: any RoadNetwork) { self.current = current }
    func link(_ id: LinkID) throws -> RoadLink { try current.link(id) }
    func links(near point: GeoPoint, radius: Double) throws -> [RoadLink] {
        try current.links(near: point, radius: radius)
    }
    func successors(of directedLink: DirectedLink) throws -> [DirectedLink] {
        try current.successors(of: directedLink)
    }
    func outgoing(from node: NodeID) throws -> [DirectedLink] { try current.outgoing(from: node) }
    func incoming(to node: NodeID) throws -> [DirectedLink] { try current.incoming(to: node) }
}

/// `HorizonEngine.refreshFeatures()`: the tree's objects read again in place, the tree kept.
@Suite struct RefreshFeaturesTests {
    @Test("objects gone from the network leave the tree and come back with it; paths, offsets and branches stay")
    func refresh() throws {
        let network = SwitchedNetwork(RoadObjectTests.network())
        let engine = try HorizonEngine(
            network: network, configuration: HorizonConfiguration(mainPathGrowthPerUpdate: .infinity))
        _ = try engine.update(onRoad(fwd(1), 10, time: 0, discontinuity: true))
        let main = try #require(engine.tree.mainPathID)
        func types() -> Set<RoadObjectType> { Set(engine.roadObjects(on: main).map(\.object.type)) }
        #expect(types().isSuperset(of: [.fixedSpeedCamera, .averageSpeedZone]))
        let paths = engine.tree.paths.mapValues { $0.links.map { ($0.link, $0.startOffset) }.description }

        network.current = PlaneRoadGraph.street(count: 30, sideEvery: 5).network
        #expect(try engine.refreshFeatures())
        #expect(types().isDisjoint(with: [.fixedSpeedCamera, .averageSpeedZone]), "\(types())")
        #expect(engine.tree.paths.mapValues { $0.links.map { ($0.link, $0.startOffset) }.description } == paths)
        #expect(try !engine.refreshFeatures(), "nothing changed since")

        network.current = RoadObjectTests.network()
        #expect(try engine.refreshFeatures())
        #expect(types().isSuperset(of: [.fixedSpeedCamera, .averageSpeedZone]))
    }

    @Test("links placed again after a refresh (a new tree) carry the objects the network has now, not those first read")
    func placedAgainAfterRefresh() throws {
        let network = SwitchedNetwork(RoadObjectTests.network())
        let engine = try HorizonEngine(
            network: network, configuration: HorizonConfiguration(mainPathGrowthPerUpdate: .infinity))
        _ = try engine.update(onRoad(fwd(1), 10, time: 0, discontinuity: true))
        func types() throws -> Set<RoadObjectType> {
            Set(engine.roadObjects(on: try #require(engine.tree.mainPathID)).map(\.object.type))
        }
        #expect(try types().isSuperset(of: [.fixedSpeedCamera, .averageSpeedZone]))

        network.current = PlaneRoadGraph.street(count: 30, sideEvery: 5).network
        _ = try engine.refreshFeatures()
        // A jump starts a new tree from the same links: placed from what the engine kept of them.
        _ = try engine.update(onRoad(fwd(1), 20, time: 1, discontinuity: true))
        let now = try types()
        #expect(now.isDisjoint(with: [.fixedSpeedCamera, .averageSpeedZone]), "\(now)")
    }
}

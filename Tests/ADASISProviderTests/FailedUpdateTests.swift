import ADASISv2
import GNSS
import Horizon
import RoadMap
import Testing
@testable import ADASISProvider

/// The sample map with reads that fail on request, as a damaged tile would: the matcher reads the
/// map as it is, the engine reads it through this.
private final class FailingReads: RoadNetwork {
    struct DamagedTile: Error {}
    let base: any RoadNetwork
    var failing = false
    init(_ base: any RoadNetwork) { self.base = base }
    private func check() throws { if failing { throw DamagedTile() } }
    func link(_ id: LinkID) throws -> RoadLink {
        try check()
        return try base.link(id)
    }
    func links(near point: GeoPoint, radius: Double) throws -> [RoadLink] {
        try check()
        return try base.links(near: point, radius: radius)
    }
    func successors(of directedLink: DirectedLink) throws -> [DirectedLink] {
        try check()
        return try base.successors(of: directedLink)
    }
    func outgoing(from node: NodeID) throws -> [DirectedLink] {
        try check()
        return try base.outgoing(from: node)
    }
    func incoming(to node: NodeID) throws -> [DirectedLink] {
        try check()
        return try base.incoming(to: node)
    }
}

/// The pipeline lets the provider go of its tree while the engine updates (the engine then grows
/// its paths in place); an update that fails part way must not leave the provider without one.
@Suite("a failed horizon update")
struct FailedUpdateTests {
    @Test("the provider goes on from the engine's tree: the same main path on the same index, no new main path")
    func providerKeepsAHorizon() throws {
        let map = try SampleDrives.map(for: "kamppi")
        let reads = FailingReads(map)
        let pipeline = try HorizonPipeline(network: reads, matcher: OnlineMapMatcher(network: map))
        let fixes = try SampleDrives.fixes("kamppi")
        var position = 0
        // Twenty seconds of the drive, ticked as the replay does.
        while position < 20 {
            try pipeline.process(fixes[position])
            for tick in 0..<10 { _ = pipeline.tick(at: fixes[position].time + Double(tick) / 10) }
            position += 1
        }
        let provider = pipeline.provider
        let mainBefore = try #require(provider.tree.mainPathID)
        let mainIndex = try #require(provider.indexOfPath[mainBefore])
        let newMainPaths = provider.counters.newMainPaths

        // Reads fail from now on: some fix needs a link the engine has not placed yet.
        reads.failing = true
        var failed: GNSSFix?
        while failed == nil, position < fixes.count {
            let fix = fixes[position]
            position += 1
            do { try pipeline.process(fix) } catch is FailingReads.DamagedTile { failed = fix }
        }
        let fix = try #require(failed, "no update read the map in the rest of the drive")
        let holdsEngineTree = provider.tree == pipeline.engine.tree  // (compared here: a tree prints long)
        #expect(holdsEngineTree, "the provider holds the engine's tree as far as it got")
        #expect(provider.tree.mainPathID == mainBefore)
        var frames: [ProviderFrame] = []
        for tick in 0..<10 { frames += pipeline.tick(at: fix.time + Double(tick) / 10) }
        #expect(provider.indexOfPath[mainBefore] == mainIndex)
        #expect(provider.counters.newMainPaths == newMainPaths, "no new main path for a failed read")
        let positions = frames.compactMap { frame -> PositionMessage? in
            if case .position(let message) = frame.message { return message }
            return nil
        }
        #expect(positions.contains { $0.pathIndex == mainIndex }, "POSITION still names the main path")

        // Reads work again: the drive goes on.
        reads.failing = false
        try pipeline.process(fixes[position])
        let followsEngine = provider.tree == pipeline.engine.tree
        #expect(followsEngine)
    }
}

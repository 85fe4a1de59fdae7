import ADASISv2
import GNSS
import Horizon
import RoadMap
import Testing
import TestSupport
@testable import ADASISProvider

/// Side paths the vehicle has left give their path indices to those ahead (stop 52): on the noisy
/// ullanlinna drive at 100–118 s the tree holds some seventy side paths for the 56 indices, and the
/// street the car drives into 500 m on (way 24336544, at 196 s) lies on a side path leaving the main
/// path 350–500 m ahead. With side paths kept until their junction is 200 m behind (the main path's
/// trailing length) that side path had no index for 20 fixes; dropped at 100 m, it has one from
/// 109 s (an index freed rests 10 s before it is given again).
@Suite("side paths behind the vehicle free their indices", .serialized)
struct SidePathTrailingDriveTests {
    /// Per fix from 100 to 118 s: whether a path of the engine's tree reaching way 24336544 holds
    /// an index on the bus, and the farthest branch point behind the vehicle of a side path that does.
    static func replay(sidePathTrailing: Double) throws -> (held: [Double], fixes: Int, farthestBehind: Double) {
        let map = try SampleDrives.map(for: "ullanlinna")
        var horizon = HorizonConfiguration()
        horizon.sidePathTrailingLength = sidePathTrailing
        // The matcher as it was before dead reckoning was fused (stop 54), whose matches make the
        // tree this scenario needs; with the fused positions the tree at 100–118 s differs.
        var matching = MatcherConfiguration()
        matching.fusesDeadReckoning = false
        let pipeline = try HorizonPipeline(
            network: map, matcher: OnlineMapMatcher(network: map, configuration: matching), horizon: horizon)
        let target = Set(
            try map.links(near: GeoPoint(latitude: 60.16787, longitude: 24.95151), radius: 200)
                .filter { $0.wayID == 24_336_544 }.map(\.id))
        #expect(!target.isEmpty, "way 24336544 not in the map")
        var held: [Double] = []
        var fixes = 0
        var farthestBehind = 0.0
        let drive = try SampleDrives.fixes("ullanlinna", noisy: true).filter { $0.time <= 118 }
        try pipeline.replay(
            drive,
            onFix: { fix, _, _ in
                guard fix.time >= 100, let vehicle = pipeline.engine.vehicleOffset else { return }
                fixes += 1
                let tree = pipeline.engine.tree
                let reaching = tree.paths.values.filter { path in path.links.contains { target.contains($0.link.link) }
                }
                if reaching.contains(where: { pipeline.provider.indexOfPath[$0.id] != nil }) { held.append(fix.time) }
                for side in tree.children(of: tree.mainPathID!) where pipeline.provider.indexOfPath[side.id] != nil {
                    farthestBehind = max(farthestBehind, vehicle - (side.branchOffset ?? vehicle))
                }
            },
            frame: { _ in })
        return (held, fixes, farthestBehind)
    }

    @Test(
        "the street driven into 500 m on has an index on the bus from 109 s; no side path on the bus branches over 110 m behind"
    )
    func indicesGoAhead() throws {
        let now = try Self.replay(sidePathTrailing: 100)
        #expect(now.fixes >= 18)
        #expect(now.held.count >= 9 && now.held.allSatisfy { $0 >= 109 }, "held at \(now.held)")
        #expect(now.held.last ?? 0 >= 118, "held at \(now.held)")
        // Dropped at the recomputation after its junction passed 100 m behind: at most 10 m later.
        #expect(now.farthestBehind <= 110, "a side path held \(now.farthestBehind) m behind")
        let before = try Self.replay(sidePathTrailing: 200)
        #expect(before.held.isEmpty, "at 200 m it was held at \(before.held)")
        #expect(before.farthestBehind > 150)
    }
}

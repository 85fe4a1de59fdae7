import ADASISv2
import GNSS
import Horizon
import RoadMap
import Testing
@testable import ADASISProvider

/// Between trees most ticks skip the walk over the tree's paths: every side path rests and the
/// send radius has not passed what the main path sent (``PathVisitOrder/isSettled``). A fix that
/// leaves every path where it hung keeps its side paths resting, unless they grew or what they sent
/// changed. A skipped walk, or a resting path not visited, would have queued nothing, so the frames
/// are those of a provider that walks every path at every tick and wakes them all at every fix,
/// through new trees, U-turns and a third level, and a traffic table that changes mid-drive.
@Suite("ticks between trees skip the walk and send the same frames")
struct SettledTreeTests {
    /// The sample map, and from mid-drive the same map with traffic signals laid over a set of
    /// links (`FeatureOverlayNetwork`, as traffic incidents are laid over the map).
    final class SwitchedNetwork: RoadNetwork {
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
        func longestWayOn(_ directedLink: DirectedLink) throws -> Double? {
            try current.longestWayOn(directedLink)
        }
    }

    /// The frames of `drive` (5 m noise), and how many of its ticks walked the tree. `traffic`:
    /// half way through, every link of the tree gets a traffic speed, and every other link of it
    /// traffic signals (road objects changed under the engine, `HorizonEngine.refreshFeatures()`).
    func frames(
        _ drive: String, walkingEveryTick: Bool, deep: Bool, traffic: Bool
    ) throws -> (frames: [ProviderFrame], walks: Int, ticks: Int) {
        var horizon = HorizonConfiguration()
        var configuration = ProviderConfiguration()
        if deep {
            horizon.maximumLevel = 3
            horizon.branchModel.offersUTurns = true
        }
        if traffic { configuration.messages = MessageSelection(preset: .all) }
        let map = try SampleDrives.map(for: drive)
        let network = SwitchedNetwork(map)
        let pipeline = try HorizonPipeline(network: network, horizon: horizon, provider: configuration)
        pipeline.provider.walksTreeEveryTick = walkingEveryTick
        var frames: [ProviderFrame] = []
        var tableSet = false, signalsSet = false
        var replayError: (any Error)?
        try pipeline.replay(try SampleDrives.fixes(drive, noisy: true)) { frame in
            frames.append(frame)
            // Between two fixes, half way through the drive, every link of the tree gets a
            // traffic speed: every path has content to change while its side paths rest.
            if traffic, !tableSet, frame.time >= 60.5 {
                tableSet = true
                var speeds: [DirectedLink: TrafficSpeed] = [:]
                for path in pipeline.engine.tree.paths.values {
                    for link in path.links {
                        let code = Int(link.wayID % 40)
                        speeds[link.link] = code % 3 == 0 ? .closed : .kilometresPerHour(Double(10 + code))
                    }
                }
                pipeline.provider.setTrafficSpeeds(TrafficSpeedTable(speeds))
            }
            // Ten seconds on, traffic signals appear on every other link of the tree.
            if traffic, !signalsSet, frame.time >= 70.5 {
                signalsSet = true
                var signals: [LinkID: [PointFeature]] = [:]
                for path in pipeline.engine.tree.paths.values {
                    for link in path.links where link.wayID % 2 == 0 {
                        signals[link.link.link] = [
                            PointFeature(kind: .trafficSignals, offset: link.length / 2, direction: nil)
                        ]
                    }
                }
                network.current = FeatureOverlayNetwork(base: map, featuresOfLink: signals)
                do {
                    if try pipeline.engine.refreshFeatures() {
                        pipeline.provider.contentChanged(tree: pipeline.engine.tree)
                    }
                } catch { replayError = error }
            }
        }
        if let replayError { throw replayError }
        guard let first = frames.first, let last = frames.last else { return (frames, pipeline.provider.treeWalks, 0) }
        let ticks = Int(((last.time - first.time) / configuration.tickInterval).rounded()) + 1
        return (frames, pipeline.provider.treeWalks, ticks)
    }

    @Test(
        "frames byte for byte as when walking at every tick, with most walks skipped",
        arguments: [
            ("ullanlinna", false, false), ("kamppi", true, false), ("uturn", false, true),
            ("kruununhaka", true, true),
        ])
    func sameFramesFewerWalks(drive: String, deep: Bool, traffic: Bool) throws {
        let skipping = try frames(drive, walkingEveryTick: false, deep: deep, traffic: traffic)
        let walking = try frames(drive, walkingEveryTick: true, deep: deep, traffic: traffic)
        #expect(skipping.frames.count > 1000, "too short a drive to tell: \(skipping.frames.count) frames")
        try #require(skipping.frames.count == walking.frames.count)
        // Time, identifier and bytes, and the message and priority they were made from.
        let differing = skipping.frames.indices.first { skipping.frames[$0] != walking.frames[$0] }
        #expect(differing == nil, "frame \(differing ?? -1) differs")
        // The walks left are those of new trees, the main path's next link and revivals: about
        // one tick in ten walks (793 of 7 733 on three drives measured with Tools/bench --instructions).
        #expect(walking.walks >= skipping.ticks - 20, "the walking provider skipped walks")
        #expect(
            skipping.walks * 3 < skipping.ticks,
            "\(skipping.walks) of \(skipping.ticks) ticks walked the tree: the settled tree is not skipped")
    }
}

import DaemonConfiguration
import Foundation
import GNSS
import GNSSSources
import Horizon
import RoadMap
import RoadMapStore
import Testing
import TestSupport
@testable import HorizonDaemon

/// A new pipeline for a change that keeps the roads (custom objects, traffic, a reload of other
/// settings) takes the running matcher over: the match goes on with its history instead of
/// starting cold, which put a noisy drive on the wrong way for its first fixes after each change.
@Suite("adasis run: the matcher goes on through a new pipeline", .serialized)
struct DaemonMatcherContinuityTests {
    /// The ways the daemon matched kamppi's noisy drive to, fix by fix, on the sample map, with
    /// `change` called on the core after every `every`-th fix.
    static func matchedWays(every: Int, change: (inout DaemonCore, MapFile) -> Void) throws -> [Int64?] {
        let mapPath = try ImportedMap.file("Data/helsinki.osm.pbf")
        let map = try MapFile(path: mapPath)
        let configuration = try DaemonConfiguration(
            toml: "[map]\npath = \"\(mapPath)\"\n[can]\ninterface = \"vcan0\"\n", source: "run.toml")
        var core = try DaemonCore(
            configuration: configuration, path: "run.toml", map: map, metadata: map.metadata,
            watchdogInterval: nil, at: 0)
        let fixes = try TraceFile(path: Repository.url("Data/drives/kamppi-noisy.csv").path).fixes
        var ways: [Int64?] = []
        for (index, fix) in fixes.enumerated() {
            _ = core.receive(FixInbox.Arrival(fix: fix, receivedAt: fix.time))
            if index > 0, index % every == 0 { change(&core, map) }
            ways.append(try core.pipeline.lastMatch?.state.position.map { try map.link($0.link.link).wayID })
        }
        return ways
    }

    @Test("custom objects changed every 20 s: each fix matched to the way it is matched to without the changes")
    func customObjectsKeepTheMatch() throws {
        let undisturbed = try Self.matchedWays(every: .max) { _, _ in }
        var rebuilt = 0
        let changed = try Self.matchedWays(every: 20) { core, map in
            let matcher = core.pipeline.matcher as AnyObject
            _ = core.useCustomObjects(map)
            #expect(core.pipeline.matcher as AnyObject === matcher, "the running matcher goes on")
            #expect(core.pipeline.engine.tree.mainPathID != nil, "the horizon is rebuilt at once")
            rebuilt += 1
        }
        #expect(rebuilt == 12)
        #expect(changed == undisturbed)
    }

    @Test("a reload keeps the matcher unless its settings change; its counts are not counted twice")
    func reloadKeepsTheMatcherWithItsSettings() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 5)
        // The fix of second 5, 80 m north of the street: an outlier the matcher counts.
        var far = streetFix(5)
        far.latitude += 80 / 111_320
        loop.inbox.append(.init(fix: far, receivedAt: 5.1))
        loop.run(from: 5, to: 8, fixes: { $0 >= 6 })
        // And the fix of second 8 with an impossible accuracy: the matcher rejects it, as the last fix.
        var impossible = streetFix(8)
        impossible.horizontalAccuracy = -1
        loop.inbox.append(.init(fix: impossible, receivedAt: 8.05))
        loop.run(from: 8, to: 8.5, fixes: { _ in false })
        let matcher = loop.core.pipeline.matcher as AnyObject
        #expect(loop.metrics(at: 8.5).gnssOutliers == 1 && loop.metrics(at: 8.5).fixesRejected == 1)

        let sameSettings = try daemonConfiguration("[messages]\npreset = \"all\"\n")
        _ = loop.core.reload(sameSettings, newMap: nil, gnss: .init(connected: true))
        #expect(loop.core.pipeline.matcher as AnyObject === matcher)
        #expect(loop.metrics(at: 8.5).fixesRejected == 1, "the rejected last fix not offered again")
        #expect(loop.core.pipeline.lastMatch != nil, "the horizon rebuilt from the matcher's last match")
        loop.run(from: 8.5, to: 10)
        #expect(loop.metrics(at: 10).gnssOutliers == 1)
        #expect(loop.core.pipeline.engine.vehicleOffset != nil)

        let otherMatching = try daemonConfiguration("[gnss]\ndead_reckoning = false\n")
        _ = loop.core.reload(otherMatching, newMap: nil, gnss: .init(connected: true))
        #expect(loop.core.pipeline.matcher as AnyObject !== matcher, "new matcher settings: a new matcher")
        #expect(loop.metrics(at: 10).gnssOutliers == 1, "the retired matcher's count kept once")
        loop.run(from: 10, to: 12)
        #expect(loop.metrics(at: 12).matchState == "on_road")
    }
}

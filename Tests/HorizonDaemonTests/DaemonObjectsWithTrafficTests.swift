import DaemonConfiguration
import Foundation
import GNSSSources
import Horizon
import RoadMap
import Testing
@testable import HorizonDaemon

/// Custom objects and a traffic feed in the daemon core at once, on the street: the horizon's
/// network is the traffic's overlay laid over the custom objects' (`horizonNetwork`), rebuilt when
/// either changes. The calls are the ones the run loop makes: ``DaemonCore/useCustomObjects(_:)``
/// after an object call over D-Bus or a SIGHUP, ``DaemonCore/takeTrafficFeed(_:source:at:)`` when
/// the feed file changes.
@Suite("daemon core: custom objects and a traffic feed together")
struct DaemonObjectsWithTrafficTests {
    /// The street with custom objects 20 m long in the middle of the given links, named by the
    /// client's ids (as `RunDaemon.withCustomObjects` lays the stored ones over the map).
    static func withObjects(_ map: any RoadNetwork, _ objects: [(id: String, link: UInt64)]) -> CustomObjectOverlay {
        CustomObjectOverlay(
            base: map,
            objects: objects.enumerated().map { number, object in
                PlacedCustomObject(
                    number: Int64(number + 1), id: object.id,
                    pieces: [CustomObjectPiece(link: LinkID(object.link), direction: .forward, start: 40, end: 60)])
            })
    }

    /// The identifiers of the road objects on the core's main path, by kind: the custom objects'
    /// (the client's ids) and the congested stretches'.
    static func objects(_ core: DaemonCore) -> (custom: [String], congestion: Set<String>) {
        guard let main = core.pipeline.engine.tree.mainPathID else { return ([], []) }
        let objects = core.pipeline.engine.roadObjects(on: main)
        return (
            objects.filter { $0.object.type == .userDefined }.map(\.object.id.rawValue),
            Set(objects.filter { $0.object.type == .congestion }.map(\.object.id.rawValue))
        )
    }

    @Test("objects survive a feed change, and the feed's congestion survives an object added")
    func together() throws {
        let map = street()
        // The main path at its whole 2000 m at once: the first feed builds a new pipeline, and the
        // expectations read the jam 600–900 m ahead before the next fix (the growth per fix has
        // its own tests, MainPathGrowthTests).
        var core = try DaemonCore(
            configuration: try daemonConfiguration("[horizon]\nmain_path_growth_m = 0\n"), path: "test.toml",
            map: map, metadata: streetMetadata, watchdogInterval: nil, at: 0)
        for second in 0...2 {
            _ = core.receive(.init(fix: streetFix(Double(second)), receivedAt: Double(second) + 0.1))
        }
        _ = core.useCustomObjects(Self.withObjects(map, [("school-1", 5)]))
        #expect(Self.objects(core).custom == ["school-1"])
        #expect(Self.objects(core).congestion.isEmpty)

        // A feed: the jam on links 7–9 is one congested stretch; the custom object stays, by its id.
        #expect(
            core.takeTrafficFeed(streetFeed(model: "m1", flow: streetJam), source: "f", at: 2.3).outcome == .applied)
        let first = Self.objects(core)
        #expect(first.custom == ["school-1"] && first.congestion.count == 1, "\(first)")

        // The feed changes (the jam moved to links 10–11): the new stretch replaces the old one.
        let moved = #"[{"links": ["L10+", "L11+"], "currentSpeed": 3, "freeFlowSpeed": 50}]"#
        #expect(core.takeTrafficFeed(streetFeed(model: "m2", flow: moved), source: "f", at: 2.4).outcome == .applied)
        let second = Self.objects(core)
        #expect(second.custom == ["school-1"], "\(second)")
        #expect(second.congestion.count == 1 && second.congestion != first.congestion, "\(second)")

        // An object added (the D-Bus AddObject call's path): the feed's stretch is laid over both.
        _ = core.useCustomObjects(Self.withObjects(map, [("school-1", 5), ("crossing-2", 8)]))
        let third = Self.objects(core)
        #expect(third.custom == ["school-1", "crossing-2"] && third.congestion == second.congestion, "\(third)")

        // Driving on: the horizon keeps all three.
        for second in 3...6 {
            _ = core.receive(.init(fix: streetFix(Double(second)), receivedAt: Double(second) + 0.1))
        }
        let driven = Self.objects(core)
        #expect(driven.custom == ["school-1", "crossing-2"] && driven.congestion == second.congestion, "\(driven)")
    }
}

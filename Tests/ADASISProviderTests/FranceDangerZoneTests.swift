import ADASISv2
import GNSS
import Horizon
import RoadMap
import RoadMapStore
import Testing
import TestSupport
@testable import ADASISProvider

/// The French variant of the two-country map (`Tools/make-border-map`: France FR-GES west of
/// longitude 12.95, Germany DE-BW east of it) with the border drive west from Germany into
/// France, under the shipped rules' French and German rows: the French camera on the road ahead
/// goes on CAN only as a danger zone (PROFILE SHORT 19/20, code 6) that contains it, rebuilt by
/// the reconstructor; no camera spot (16) and no German safety location is sent at all.
@Suite("danger zones in France", .serialized)
struct FranceDangerZoneTests {
    static let mapPath: Result<String, Error> = Result {
        try ImportedMap.file("Data/border/fr-de-border.osm.pbf", country: nil)
    }

    static let frenchRules = SafetyLocationRules(rules: [
        SafetyLocationRule(
            scope: .country(try! Country(alpha2: "DE")), type: nil, allowed: false, source: "StVO § 23 Abs. 1c"),
        SafetyLocationRule(
            scope: .country(try! Country(alpha2: "FR")), type: nil, allowed: false, source: "R413-15"),
        SafetyLocationRule(
            scope: .country(try! Country(alpha2: "FR")), type: .dangerZone, allowed: true, source: "protocol 2011"),
    ])

    struct Run {
        /// PROFILE SHORT 16 spots on the main path (index 8): offset → camera type.
        var cameraSpots: [Int: UInt16] = [:]
        /// The road objects rebuilt on the main path, the last time each code was seen.
        var rebuilt: [ReconstructedObject] = []
        /// The danger zones the engine reported on the main path.
        var zones: [PathRoadObject] = []
        /// Events of danger zones, in order.
        var events: [String] = []
    }

    static func drive(rules: SafetyLocationRules) throws -> Run {
        let map = try MapFile(path: try mapPath.get())
        var horizon = HorizonConfiguration()
        horizon.safetyLocationRules = rules
        horizon.places = PlaceCodes(map: map.metadata)
        var provider = ProviderConfiguration()
        provider.messages = MessageSelection(preset: .all)
        let pipeline = try HorizonPipeline(network: map, horizon: horizon, provider: provider)
        let fixes = try TraceFile(path: Repository.url("Data/border/border-drive.csv").path).fixes
        var run = Run()
        var reconstructor = HorizonReconstructor()
        var tracker = RoadObjectTracker()
        var rebuilt: [String: ReconstructedObject] = [:]
        for fix in fixes {
            try pipeline.process(fix)
            if let main = pipeline.engine.tree.mainPathID {
                let objects = pipeline.engine.roadObjects(on: main)
                for zone in objects where zone.object.type == .dangerZone {
                    run.zones.removeAll { $0.object.id == zone.object.id }
                    run.zones.append(zone)
                }
                for event in tracker.update(mainPathObjects: objects, vehicleOffset: pipeline.engine.vehicleOffset) {
                    switch event {
                    case .entered(let object, _) where object.type == .dangerZone: run.events.append("entered")
                    case .exited(let object, _) where object.type == .dangerZone: run.events.append("exited")
                    default: break
                    }
                }
            }
            for frame in pipeline.tick(at: fix.time) {
                reconstructor.apply(frame.message, time: frame.time)
                if case .profileShort(let profile) = frame.message, profile.profileType == .safetyCamera,
                    profile.pathIndex == 8
                {
                    run.cameraSpots[Int(profile.offset)] = profile.value0
                }
            }
            for object in reconstructor.horizon.paths[8]?.objects ?? [] {
                rebuilt["\(object.code)@\(object.start.map(String.init) ?? "-")"] = object
            }
        }
        run.rebuilt = rebuilt.values.sorted { ($0.start ?? -1, $0.code) < ($1.start ?? -1, $1.code) }
        return run
    }

    @Test("the French camera is sent as a danger zone around it, the German ones not at all; rebuilt from CAN")
    func dangerZoneOnCAN() throws {
        // Without rules both roads' cameras go as PROFILE SHORT 16 spots: where the French one lies.
        let open = try Self.drive(rules: .allowingAll)
        let cameras = open.cameraSpots.keys.sorted()
        try #require(cameras.count == 2, "the German and the French camera on the drive's road: \(cameras)")
        let french = cameras[1]  // westbound from Germany: the French camera comes second
        #expect(!open.rebuilt.contains { $0.code == 6 }, "no danger zone without rules")

        let run = try Self.drive(rules: Self.frenchRules)
        #expect(run.cameraSpots.isEmpty, "no camera spot is ever sent: \(run.cameraSpots)")
        #expect(!run.rebuilt.contains { (1...5).contains($0.code) }, "no German section or camera: \(run.rebuilt)")
        // The road ends in France 1.9 km past the camera, where the main path turns back east: the
        // zone of the camera's other direction follows there. This one is the westbound zone.
        let zones = run.rebuilt.filter { $0.code == 6 && ($0.start ?? .max) <= french }
        try #require(zones.count == 1, "\(run.rebuilt) french \(french)")
        let zone = zones[0]
        let start = try #require(zone.start), end = try #require(zone.end)
        #expect(start < french && french < end, "the zone \(start)…\(end) contains the camera at \(french)")
        // A 2 km zone outside built-up areas, the camera 20…80 % into it (the road runs on past it).
        #expect(abs(end - start - 2000) <= 2, "\(start)…\(end)")
        #expect(french - start >= 399 && end - french >= 399)
        #expect(zone.value == 1023, "no enforced speed with a danger zone")
        // The engine's zone is what was rebuilt, and driving through it enters and leaves it once.
        let engineZones = run.zones.filter { $0.start <= Double(french) }
        #expect(engineZones.count == 1 && engineZones.map { Int($0.start.rounded()) } == [start])
        #expect(engineZones.map { Int($0.end.rounded()) } == [end])
        #expect(run.events == ["entered", "exited"], "\(run.events) \(run.zones)")
    }
}

import ADASISv2
import GNSS
import Horizon
import RoadMap
import Testing
@testable import ADASISProvider

/// The legal filter applies where a safety location lies: on the two-country map, with warning
/// forbidden in Germany, the German cameras ahead vanish from the horizon (paths, road objects,
/// queries) and from the CAN stream while the vehicle is still in Austria, and the Austrian
/// ones stay.
@Suite("legal filter at the border", .serialized)
struct BorderFilterTests {
    static let germanyForbidden = SafetyLocationRules(rules: [
        SafetyLocationRule(
            scope: .country(try! Country(alpha2: "DE")), type: nil, allowed: false, source: "StVO § 23 Abs. 1c")
    ])

    struct Run {
        /// Safety locations along every path 20 s before the border, with their country (alpha-2).
        var safetyObjects: [(object: PathRoadObject, country: String?)]
        /// The next camera on the main path then, metres ahead.
        var nextCamera: Double?
        /// PROFILE SHORT safety-camera spots sent on the main path (index 8) over the drive, with
        /// whether each lies in Germany (beyond the border's offset on that path).
        var sentCameras: [(offset: Int, inGermany: Bool, type: UInt16)]
        /// Safety locations seen on the main path at the first fix (in Austria).
        var atStart: [PathRoadObject]
    }

    static func drive(rules: SafetyLocationRules) throws -> Run {
        let map = try BorderDrive.map()
        var horizon = HorizonConfiguration()
        horizon.safetyLocationRules = rules
        horizon.places = PlaceCodes(map: map.metadata)
        var provider = ProviderConfiguration()
        provider.messages = MessageSelection(preset: .all)
        let pipeline = try HorizonPipeline(network: map, horizon: horizon, provider: provider)
        let fixes = try BorderDrive.fixes()
        let crossing = try #require(BorderDrive.crossingTime(fixes))
        var run = Run(safetyObjects: [], nextCamera: nil, sentCameras: [], atStart: [])
        var borderOffset: Double?
        var spots: [Int: UInt16] = [:]
        var next = 0
        var time = fixes[0].time
        while time <= fixes[fixes.count - 1].time + 1 {
            while next < fixes.count, fixes[next].time <= time + 1e-9 {
                try pipeline.process(fixes[next])
                next += 1
                let engine = pipeline.engine
                let places = PlaceCodes(map: map.metadata)
                if next == 1, let main = engine.tree.mainPathID {
                    run.atStart = engine.roadObjects(on: main).filter(\.object.type.isSafetyLocation)
                }
                if let main = engine.tree.mainPath, borderOffset == nil,
                    let german = main.countryStretches(places).first(where: { $0.country?.alpha2 == "DE" })
                {
                    borderOffset = german.startOffset
                }
                if fixes[next - 1].time <= crossing - 20, fixes[next - 1].time > crossing - 21 {
                    run.nextCamera = engine.queries?.nextCamera()?.distance
                    for path in engine.tree.paths.values {
                        let stretches = path.countryStretches(places)
                        for object in engine.roadObjects(on: path.id) where object.object.type.isSafetyLocation {
                            let stretch = stretches.last { $0.startOffset <= object.start }
                            run.safetyObjects.append((object, stretch?.country?.alpha2))
                        }
                    }
                }
            }
            for frame in pipeline.tick(at: time) {
                if case .profileShort(let profile) = frame.message, profile.profileType == .safetyCamera,
                    profile.pathIndex == 8
                {
                    spots[Int(profile.offset)] = profile.value0
                }
            }
            time += provider.tickInterval
        }
        let border = try #require(borderOffset)
        run.sentCameras = spots.sorted { $0.key < $1.key }.map { ($0.key, Double($0.key) > border, $0.value) }
        return run
    }

    @Test("without rules the German cameras ahead are reported and sent; with DE forbidden they are not")
    func germanCamerasFiltered() throws {
        let open = try Self.drive(rules: .allowingAll)
        // Unfiltered: 20 s (400 m) before the border the German camera 1.5 km past it is ahead.
        #expect(open.safetyObjects.contains { $0.country == "DE" && $0.object.object.type == .fixedSpeedCamera })
        #expect(open.nextCamera.map { $0 > 1_800 && $0 < 2_000 } == true, "\(String(describing: open.nextCamera))")
        #expect(open.sentCameras.contains { $0.inGermany }, "\(open.sentCameras)")

        let filtered = try Self.drive(rules: Self.germanyForbidden)
        #expect(!filtered.safetyObjects.isEmpty || open.safetyObjects.allSatisfy { $0.country == "DE" })
        #expect(filtered.safetyObjects.allSatisfy { $0.country != "DE" }, "\(filtered.safetyObjects.map(\.country))")
        #expect(filtered.nextCamera == nil)
        #expect(!filtered.sentCameras.contains { $0.inGermany }, "\(filtered.sentCameras)")
        // The Austrian cameras are untouched: the same spots before the border as without rules.
        #expect(filtered.sentCameras.map(\.offset) == open.sentCameras.filter { !$0.inGermany }.map(\.offset))
        #expect(!filtered.sentCameras.isEmpty)
        #expect(filtered.atStart == open.atStart && !open.atStart.isEmpty)
    }

    @Test("a rule for Austria's region filters the Austrian cameras and leaves the German ones")
    func regionRule() throws {
        let rules = SafetyLocationRules(rules: [
            SafetyLocationRule(
                scope: .region(try Region(code: "AT-5")), type: .fixedSpeedCamera, allowed: false, source: "test")
        ])
        let run = try Self.drive(rules: rules)
        #expect(run.atStart.allSatisfy { $0.object.type != .fixedSpeedCamera })
        #expect(run.atStart.contains { $0.object.type == .averageSpeedZone })
        #expect(run.safetyObjects.contains { $0.country == "DE" && $0.object.object.type == .fixedSpeedCamera })
        // No camera spot in Austria any more (the zone travels as a road object, not a camera spot).
        #expect(run.sentCameras.allSatisfy { $0.inGermany }, "\(run.sentCameras)")
        #expect(run.sentCameras.contains { $0.inGermany && $0.type == 1 }, "\(run.sentCameras)")
    }
}

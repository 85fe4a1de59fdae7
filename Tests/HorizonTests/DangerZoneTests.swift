import Testing
import RoadMap
@testable import Horizon
import TestSupport

/// Cameras that French law forbids reporting become danger zones, on a 3 km street ("Main",
/// thirty 100 m links east, a side road north at every fifth junction): France (250) up to link 19,
/// Germany (276) from link 20 (1900 m) on. A fixed camera at 50 m of link 10 (950 m, France) and
/// one at 50 m of link 20 (1950 m, Germany), both eastbound.
@Suite struct DangerZoneTests {
    static let france = SafetyLocationRule(
        scope: .country(try! Country(alpha2: "FR")), type: nil, allowed: false, source: "R413-15")
    static let franceZones = SafetyLocationRule(
        scope: .country(try! Country(alpha2: "FR")), type: .dangerZone, allowed: true, source: "protocol 2011")
    static let germany = SafetyLocationRule(
        scope: .country(try! Country(alpha2: "DE")), type: nil, allowed: false, source: "StVO § 23 Abs. 1c")
    static let rules = SafetyLocationRules(rules: [france, franceZones, germany])

    static func network(builtUp: Bool? = nil, highway: HighwayClass? = nil) -> InMemoryRoadNetwork {
        var graph = PlaneRoadGraph.street(count: 30, sideEvery: 5)
        for index in graph.links.indices {
            let id = graph.links[index].id.rawValue
            if id == 10 || id == 20 {
                graph.links[index].features.append(
                    PointFeature(kind: .safetyCamera(.fixedSpeed, speedLimit: 90), offset: 50, direction: .forward))
            }
            graph.links[index].countryCode = id < 100 && id >= 20 ? 276 : 250
            if id < 100 {
                graph.links[index].builtUpArea = builtUp
                if let highway { graph.links[index].highway = highway }
            }
        }
        return graph.network
    }

    static func engine(
        rules: SafetyLocationRules = rules, builtUp: Bool? = nil, highway: HighwayClass? = nil, at offset: Double = 10
    ) throws -> HorizonEngine {
        // The whole main path at the first fix: the zones lie up to 2 km ahead.
        var configuration = HorizonConfiguration(mainPathGrowthPerUpdate: .infinity)
        configuration.safetyLocationRules = rules
        let engine = try HorizonEngine(
            network: network(builtUp: builtUp, highway: highway), configuration: configuration)
        let link = Int(offset / 100) + 1
        _ = try engine.update(onRoad(fwd(UInt64(link)), offset - Double(link - 1) * 100, time: 0, discontinuity: true))
        return engine
    }

    static func isDangerZone(_ feature: PointFeature) -> Bool {
        if case .zone(let piece) = feature.kind { return piece.type == .dangerZone }
        return false
    }

    static func safetyLocations(_ engine: HorizonEngine) throws -> [PathRoadObject] {
        let main = try #require(engine.tree.mainPathID)
        return engine.roadObjects(on: main).filter { $0.object.type.isSafetyLocation }
    }

    @Test(
        "the French camera is one danger zone of about 2 km around it, cut at the German border; the German camera is gone"
    )
    func frenchCameraBecomesZone() throws {
        let engine = try Self.engine()
        let objects = try Self.safetyLocations(engine)
        try #require(objects.count == 1, "\(objects)")
        let zone = objects[0]
        #expect(zone.object.type == .dangerZone && zone.object.id.rawValue.hasPrefix("danger_zone:r"))
        #expect(zone.start < 950 && zone.end > 950, "the zone contains the camera: \(zone.start)…\(zone.end)")
        #expect(zone.end <= 1900 + 0.001, "the zone stops at the border: \(zone.end)")
        // 2 km with the camera at 20…80 % of it, less what the street's start and the border cut.
        let before = 950 - zone.start, after = zone.end - 950
        #expect(before >= 399 && after >= 399 && zone.end - zone.start <= 2000.001, "\(zone.start)…\(zone.end)")
        #expect(zone.object.attributes.enforcedSpeed == nil, "a danger zone does not give the camera's limit")
        let main = try #require(engine.tree.mainPath)
        let cameras = main.links.flatMap(\.features).filter {
            if case .safetyCamera = $0.kind { return true } else { return false }
        }
        #expect(cameras.isEmpty, "the camera's point is never on the path: \(cameras)")
    }

    @Test(
        "without the French danger-zone row the camera is dropped as in Germany; without rules both cameras are points")
    func dependsOnTheTable() throws {
        let forbidden = try Self.safetyLocations(
            Self.engine(rules: SafetyLocationRules(rules: [Self.france, Self.germany])))
        #expect(forbidden.isEmpty, "\(forbidden)")
        let open = try Self.safetyLocations(Self.engine(rules: .allowingAll))
        #expect(open.map(\.object.type) == [.fixedSpeedCamera, .fixedSpeedCamera], "\(open)")
        #expect(open.map { Int($0.start.rounded()) } == [950, 1950])
    }

    @Test("only the camera types that become zones in the map's countries are looked for; in a German map none")
    func typesSought() throws {
        let germanMap = PlaceCodes(countryCodes: ["DE"])
        #expect(DangerZoneDerivation(network: Self.network(), rules: Self.rules, places: germanMap) == nil)
        // France forbids every camera: all are looked for; so they are when the countries are not known.
        for places in [PlaceCodes(countryCodes: ["FR", "DE"]), PlaceCodes()] {
            let network = SafetyScanRecorder(base: Self.network(), featuresOfLink: [:])
            let derivation = try #require(DangerZoneDerivation(network: network, rules: Self.rules, places: places))
            let road = try derivation.addingDangerZones(to: network.link(LinkID(10)))
            #expect(network.typesAsked.allSatisfy { $0 == Set(DangerZonePolicy.cameraTypes) })
            #expect(!network.typesAsked.isEmpty && road.features.contains(where: Self.isDangerZone))
        }
        // Where only restriction cameras are forbidden, only they are looked for (and the speed cameras
        // stay points).
        let restrictionOnly = SafetyLocationRules(rules: [
            SafetyLocationRule(
                scope: .country(try Country(alpha2: "FR")), type: .restrictionCamera, allowed: false, source: "test"),
            Self.franceZones,
        ])
        let network = SafetyScanRecorder(base: Self.network(), featuresOfLink: [:])
        let derivation = try #require(
            DangerZoneDerivation(
                network: network, rules: restrictionOnly, places: PlaceCodes(countryCodes: ["FR", "DE"])))
        let road = try derivation.addingDangerZones(to: network.link(LinkID(10)))
        #expect(!network.typesAsked.isEmpty && network.typesAsked.allSatisfy { $0 == [.restrictionCamera] })
        #expect(!road.features.contains(where: Self.isDangerZone))
    }

    @Test("300 m in a built-up area, 4 km on a motorway (cut here by the border)")
    func lengthsByRoad() throws {
        let town = try #require(try Self.safetyLocations(Self.engine(builtUp: true)).first)
        #expect(abs(town.end - town.start - 300) < 0.01 && town.start < 950 && town.end > 950, "\(town)")
        let motorway = try #require(try Self.safetyLocations(Self.engine(highway: .motorway)).first)
        #expect(motorway.start <= 150.01 && abs(motorway.end - 1900) < 0.01, "≥ 800 m each side: \(motorway)")
        #expect(DangerZonePolicy.zoneLength(on: RoadLink.sample(highway: .motorway), direction: .forward) == 4000)
    }

    @Test("driving through raises entered and exited once; the same zone every run (no clock, no randomness)")
    func eventsAndDeterminism() throws {
        let engine = try Self.engine()
        let first = try Self.safetyLocations(engine)
        let again = try Self.safetyLocations(Self.engine())
        #expect(first == again)
        var tracker = RoadObjectTracker()
        var names: [String] = []
        var position = 10.0, time = 1.0
        while position <= 2200 {
            let link = Int(position / 100) + 1
            _ = try engine.update(onRoad(fwd(UInt64(link)), position - Double(link - 1) * 100, time: time))
            let main = try #require(engine.tree.mainPathID)
            for event in tracker.update(
                mainPathObjects: engine.roadObjects(on: main), vehicleOffset: engine.vehicleOffset)
            {
                switch event {
                case .entered(let object, _) where object.type == .dangerZone: names.append("entered")
                case .exited(let object, _) where object.type == .dangerZone: names.append("exited")
                default: break
                }
            }
            position += 10
            time += 1
        }
        #expect(names == ["entered", "exited"], "\(names)")
    }

    @Test("a camera on a 100 m road with no way on at either end gets no zone (it would give its place), and no camera")
    func tooShortForAZone() throws {
        var graph = PlaneRoadGraph.street(count: 1)
        graph.links[0].countryCode = 250
        graph.links[0].features = [
            PointFeature(kind: .safetyCamera(.fixedSpeed, speedLimit: 90), offset: 50, direction: .forward)
        ]
        // The whole main path at the first fix: the zones lie up to 2 km ahead.
        var configuration = HorizonConfiguration(mainPathGrowthPerUpdate: .infinity)
        configuration.safetyLocationRules = Self.rules
        let engine = try HorizonEngine(network: graph.network, configuration: configuration)
        _ = try engine.update(onRoad(fwd(1), 10, time: 0, discontinuity: true))
        #expect(try Self.safetyLocations(engine).isEmpty)
        #expect(
            DangerZonePolicy.shortestZone(nominal: 2000) == 150 && DangerZonePolicy.shortestZone(nominal: 300) == 150)
    }

    @Test("the camera's place in its zone is spread over 20…80 % from camera to camera")
    func placementSpread() {
        let shares = (0..<200).map { DangerZonePolicy.placement(key: "\($0)+@\($0 * 37)").shareBefore }
        #expect(shares.allSatisfy { $0 >= 0.2 && $0 <= 0.8 })
        #expect(shares.min()! < 0.25 && shares.max()! > 0.75, "\(shares.min()!) … \(shares.max()!)")
        #expect(Set((0..<200).map { DangerZonePolicy.placement(key: "\($0)").zone }).count == 200)
    }
}

extension RoadLink {
    /// A 100 m link of `highway` for the length rules.
    fileprivate static func sample(highway: HighwayClass) -> RoadLink {
        var graph = PlaneRoadGraph.street(count: 1)
        graph.links[0].highway = highway
        return graph.links[0]
    }
}

/// A network that records the types each safety-location scan asks for.
private final class SafetyScanRecorder: FeatureOverlayNetwork {
    var typesAsked: [Set<RoadObjectType>] = []

    override func linksWithSafetyLocations(near point: GeoPoint, radius: Double, of types: Set<RoadObjectType>) throws
        -> [RoadLink]
    {
        typesAsked.append(types)
        return try super.linksWithSafetyLocations(near: point, radius: radius, of: types)
    }
}

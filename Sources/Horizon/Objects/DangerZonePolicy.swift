import RoadMap

extension SafetyLocationRules {
    /// The safety-location types that become a danger zone where they lie in `country` and
    /// `region`: the camera types these rules forbid there while they allow danger zones (France:
    /// every camera, `Data/safety-location-rules.toml`). Empty where danger zones are forbidden
    /// too (Germany, Switzerland) or where cameras are reported as they are.
    public func typesBecomingDangerZones(country: Country?, region: Region?) -> Set<RoadObjectType> {
        guard allows(.dangerZone, country: country, region: region) else { return [] }
        return Set(
            DangerZonePolicy.cameraTypes.filter { !allows($0, country: country, region: region) })
    }

    /// Whether any row of these rules allows danger zones: without one, no camera can become a
    /// danger zone and the horizon never looks for them.
    public var allowsDangerZonesAnywhere: Bool {
        rules.contains { $0.allowed && ($0.type == .dangerZone) }
    }
}

/// How a camera that may not be reported becomes a danger zone, after the French practice: the
/// industry protocol of 28 July 2011 (AFFTAC and the Ministry of the Interior) and décret
/// n° 2012-3 of 3 January 2012 (Code de la route art. R413-15) let a driving aid warn of a
/// "zone de danger" that contains the enforcement point without giving its position: about 4 km
/// on motorways, 2 km outside built-up areas and 300 m inside them.
///
/// The zone is a stretch along the camera's road in its driving direction; the camera lies at a
/// fraction of it (20 … 80 %) drawn from a hash of the camera's place, so the same camera always
/// gives the same zone (deterministic), while neither end of the zone is a fixed distance from it.
/// The camera's own point is never part of the horizon.
public enum DangerZonePolicy {
    /// The camera types a danger zone may stand for (fixed, mobile, red light, section, restriction).
    public static let cameraTypes: [RoadObjectType] = [
        .fixedSpeedCamera, .mobileSpeedZone, .redLightCamera, .averageSpeedZone, .restrictionCamera,
    ]

    /// The longest zone (motorway), metres: how far from a link the horizon looks for cameras
    /// whose zone may reach it.
    public static let longestZone = 4000.0

    /// The length of the zone of a camera on `road`, metres: 4 000 on a motorway, 300 in a built-up
    /// area (`builtUpArea`, or a limit of 50 km/h or less where that is not mapped), else 2 000.
    public static func zoneLength(on road: RoadLink, direction: LinkDirection) -> Double {
        switch road.highway {
        case .motorway, .motorwayLink: return longestZone
        default: break
        }
        if let builtUp = road.builtUpArea { return builtUp ? 300 : 2000 }
        if let limit = road.attributes(direction).speedLimit.kilometresPerHour, limit <= 50 { return 300 }
        return 2000
    }

    /// The shortest zone made for a camera whose zone would be `nominal` metres: half of it, at most
    /// 150 m. A zone cut shorter than that by junctions and borders on both sides would all but give
    /// the camera's place, so the camera gets no zone (and, forbidden, is not reported at all).
    public static func shortestZone(nominal: Double) -> Double { min(nominal, 300) / 2 }

    /// The share of the zone before the camera (0.2 … 0.8) and the zone's number, both from a
    /// 64-bit FNV-1a hash of where the camera lies (`key`), never from a clock or a random source.
    static func placement(key: String) -> (shareBefore: Double, zone: Int64) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let share = 0.2 + 0.6 * Double(hash >> 40) / Double(1 << 24)
        // 46 bits: positive, and far from the relation numbers of the map's own zones.
        let zone = Int64(bitPattern: (hash & 0x3FFF_FFFF_FFFF) | 0x2000_0000_0000)
        return (share, zone)
    }
}

import Foundation

/// What a road object is: everything located on the road that a horizon client may want to know
/// about, from safety locations to tunnels, border crossings and the client's own objects.
///
/// The raw values are the names used in configuration files and on the command line
/// (`--objects fixed_speed_camera,tunnel`).
public enum RoadObjectType: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// A fixed speed camera (a point).
    case fixedSpeedCamera = "fixed_speed_camera"
    /// A zone where mobile speed checks are frequent, or a mobile camera (a point or a stretch).
    case mobileSpeedZone = "mobile_speed_zone"
    /// A red-light camera (a point).
    case redLightCamera = "red_light_camera"
    /// An average-speed (section control) zone, from its start to its end (a stretch).
    case averageSpeedZone = "average_speed_zone"
    /// A camera enforcing an access, turn or other restriction (a point).
    case restrictionCamera = "restriction_camera"
    /// A danger zone: the form France allows for warning of enforcement (a stretch).
    case dangerZone = "danger_zone"
    /// A tunnel (a stretch).
    case tunnel
    /// A bridge (a stretch).
    case bridge
    /// A toll booth (a point).
    case tollBooth = "toll_booth"
    /// A border crossing: a border control post, or where the road enters another country (a point).
    case borderCrossing = "border_crossing"
    /// A level crossing of road and railway (a point).
    case railwayCrossing = "railway_crossing"
    /// Traffic signals (a point).
    case trafficSignals = "traffic_signals"
    /// A traffic incident (filled by a traffic feed; a point or a stretch).
    case incident
    /// An object the client defined itself (a point or a stretch).
    case userDefined = "user_defined"
    /// Congested traffic: a stretch where a traffic feed reports the flow below the congestion
    /// threshold of its free-flow speed (`Docs/traffic-feed.md`).
    case congestion
    /// A hazard a road sign warns of (`hazard=*`: children, animals crossing, a dangerous curve,
    /// …), a stretch on a way or a point on a road node. Not enforcement: no legal filter drops it.
    /// Declared last, as the map file stores a zone's type by its position in `allCases`.
    case hazard

    /// Whether the type is a safety location (speed enforcement and danger zones), the types that
    /// local law may forbid warning of.
    public var isSafetyLocation: Bool {
        switch self {
        case .fixedSpeedCamera, .mobileSpeedZone, .redLightCamera, .averageSpeedZone, .restrictionCamera,
            .dangerZone:
            return true
        case .tunnel, .bridge, .tollBooth, .borderCrossing, .railwayCrossing, .trafficSignals, .incident,
            .userDefined, .congestion, .hazard:
            return false
        }
    }

    /// The type of a safety camera of the map, `nil` for a camera of unknown type.
    public init?(camera: SafetyCameraType) {
        switch camera {
        case .fixedSpeed: self = .fixedSpeedCamera
        case .mobileSpeed: self = .mobileSpeedZone
        case .redLight: self = .redLightCamera
        case .averageSpeedZone: self = .averageSpeedZone
        case .restriction: self = .restrictionCamera
        case .unknown: return nil
        }
    }

    /// The types in declaration order (the order of `allCases`).
    public static func < (lhs: RoadObjectType, rhs: RoadObjectType) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Parses a comma-separated list of type names (`fixed_speed_camera,tunnel`); `all` stands for
    /// every type.
    ///
    /// - Throws: ``RoadObjectTypeListError`` naming the unknown entry and the known names.
    public static func parseList(_ text: String) throws(RoadObjectTypeListError) -> Set<RoadObjectType> {
        var result = Set<RoadObjectType>()
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = entry.trimmingCharacters(in: .whitespaces)
            if name == "all" {
                result.formUnion(allCases)
            } else if let type = RoadObjectType(rawValue: name) {
                result.insert(type)
            } else {
                throw RoadObjectTypeListError(entry: String(name))
            }
        }
        return result
    }
}

/// An entry of a road-object type list that names no type.
public struct RoadObjectTypeListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The entry as written.
    public var entry: String

    /// Creates the error for `entry`.
    public init(entry: String) { self.entry = entry }

    public var description: String {
        "unknown road object type '\(entry)'; use a comma-separated list of "
            + RoadObjectType.allCases.map(\.rawValue).joined(separator: ", ") + " (or all)"
    }
}

extension PointFeatureKind {
    /// The road object a feature of the map stands for, `nil` for a camera of unknown type.
    public var roadObjectType: RoadObjectType? {
        switch self {
        case .safetyCamera(let camera, _): RoadObjectType(camera: camera)
        case .trafficSignals: .trafficSignals
        case .tollBooth: .tollBooth
        case .borderControl: .borderCrossing
        case .railwayCrossing: .railwayCrossing
        case .zone(let piece): piece.type
        }
    }
}

/// Where a speed limit comes from.
public enum SpeedLimitKind: UInt8, Hashable, Sendable, Codable {
    /// The legal default for the road type and country (no sign).
    case implicit
    /// Posted on a sign (`maxspeed=…`).
    case explicit
    /// Depends on time or conditions (`maxspeed:conditional`); ``SpeedLimit/value`` is the base value.
    case timeDependent
    /// Not known.
    case unknown
}

/// A speed limit for one direction of a link. Never a silent 0: unknown and unlimited are explicit.
public struct SpeedLimit: Hashable, Sendable, Codable {
    /// The value of a speed limit.
    public enum Value: Hashable, Sendable, Codable {
        /// Not known.
        case unknown
        /// A maximum in km/h (converted from mph or knots on import).
        case kilometresPerHour(Double)
        /// No limit (`maxspeed=none`).
        case unlimited
    }
    /// The value.
    public var value: Value
    /// Its origin.
    public var kind: SpeedLimitKind

    /// Creates a speed limit.
    public init(value: Value, kind: SpeedLimitKind) {
        self.value = value
        self.kind = kind
    }

    /// An unknown limit.
    public static let unknown = SpeedLimit(value: .unknown, kind: .unknown)

    /// The limit in km/h, or `nil` when unknown or unlimited.
    public var kilometresPerHour: Double? {
        if case .kilometresPerHour(let v) = value { return v }
        return nil
    }
}

/// Attributes that differ between the two directions of a link.
public struct DirectionalAttributes: Hashable, Sendable, Codable {
    /// The speed limit in this direction.
    public var speedLimit: SpeedLimit
    /// Lanes in this direction, `nil` when not known.
    public var lanes: UInt8?

    /// Creates directional attributes.
    public init(speedLimit: SpeedLimit = .unknown, lanes: UInt8? = nil) {
        self.speedLimit = speedLimit
        self.lanes = lanes
    }
}

/// Which travel directions a link allows.
public enum Oneway: UInt8, Hashable, Sendable, Codable {
    /// Both directions.
    case no
    /// Only ``LinkDirection/forward``.
    case forward
    /// Only ``LinkDirection/backward`` (`oneway=-1`).
    case backward

    /// Whether travel in `direction` is allowed.
    public func allows(_ direction: LinkDirection) -> Bool {
        switch self {
        case .no: return true
        case .forward: return direction == .forward
        case .backward: return direction == .backward
        }
    }
}

/// The type of a safety camera (raw values are stored in map tiles and sent on CAN).
public enum SafetyCameraType: UInt8, Hashable, Sendable, Codable, CaseIterable {
    /// Enforcement of an unknown kind.
    case unknown
    /// A fixed speed camera.
    case fixedSpeed
    /// A mobile speed camera.
    case mobileSpeed
    /// A red-light camera.
    case redLight
    /// An average-speed zone given as one point (its `from` or `device` member).
    case averageSpeedZone
    /// A camera enforcing a restriction (access, distance, height, weight).
    case restriction
}

/// A thing at a point along a link.
public enum PointFeatureKind: Hashable, Sendable, Codable {
    /// A safety camera, with its enforced limit in km/h when tagged.
    case safetyCamera(SafetyCameraType, speedLimit: Double?)
    /// Traffic signals.
    case trafficSignals
    /// A toll booth (`barrier=toll_booth`).
    case tollBooth
    /// A border control post (`barrier=border_control`).
    case borderControl
    /// A level crossing with a railway (`railway=level_crossing`).
    case railwayCrossing
    /// A piece of a zone: the stretch from the feature's offset to `offset + length` (forward
    /// offsets), driven in the feature's direction. A zone over several links has one piece on each.
    case zone(ZonePiece)
}

/// The part of a zone (such as an average-speed zone) that lies on one link.
public struct ZonePiece: Hashable, Sendable, Codable {
    /// What the zone is.
    public var type: RoadObjectType
    /// The zone's identifier in the map (the OSM relation id of an enforcement relation).
    public var zone: Int64
    /// Length of the piece along the link, metres.
    public var length: Double
    /// Whether the zone begins at this piece's start in the driving direction.
    public var isZoneStart: Bool
    /// Whether the zone ends at this piece's end in the driving direction.
    public var isZoneEnd: Bool
    /// The enforced limit in km/h, when tagged.
    public var speedLimit: Double?
    /// What a `hazard` warns of (`hazard=*`), `nil` for other types and maps imported before kinds.
    public var hazard: HazardKind?

    /// Creates a zone piece.
    public init(
        type: RoadObjectType, zone: Int64, length: Double, isZoneStart: Bool, isZoneEnd: Bool,
        speedLimit: Double?, hazard: HazardKind? = nil
    ) {
        self.hazard = hazard
        self.type = type
        self.zone = zone
        self.length = length
        self.isZoneStart = isZoneStart
        self.isZoneEnd = isZoneEnd
        self.speedLimit = speedLimit
    }
}

/// A feature at an offset along a link.
public struct PointFeature: Hashable, Sendable, Codable {
    /// What it is.
    public var kind: PointFeatureKind
    /// Metres from the link's first geometry point.
    public var offset: Double
    /// The travel direction it applies to, `nil` for both.
    public var direction: LinkDirection?

    /// Creates a point feature.
    public init(kind: PointFeatureKind, offset: Double, direction: LinkDirection?) {
        self.kind = kind
        self.offset = offset
        self.direction = direction
    }
}

extension PointFeature {
    /// The type of the safety location whose own point this is: a safety camera (one of unknown
    /// type counts as a fixed speed camera, as most mapped cameras are), or where a
    /// safety-location zone (an average-speed section, a danger zone) starts; `nil` otherwise.
    public var safetyLocationStartType: RoadObjectType? {
        switch kind {
        case .safetyCamera(let camera, _): RoadObjectType(camera: camera) ?? .fixedSpeedCamera
        case .zone(let piece): piece.isZoneStart && piece.type.isSafetyLocation ? piece.type : nil
        default: nil
        }
    }

    /// Whether this is a safety location's own point (``safetyLocationStartType``).
    public var isSafetyLocationStart: Bool { safetyLocationStartType != nil }
}

extension RoadLink {
    /// Whether one of the link's features is the own point of a safety location of one of `types`
    /// (``PointFeature/safetyLocationStartType``).
    public func holdsSafetyLocation(of types: Set<RoadObjectType>) -> Bool {
        features.contains { feature in feature.safetyLocationStartType.map(types.contains) ?? false }
    }
}

/// A value that holds from an offset along a link (in the forward direction) until the next point.
public struct ProfilePoint: Hashable, Sendable, Codable {
    /// Metres from the link's first geometry point.
    public var offset: Double
    /// The value: curvature in 1/m (positive = curving right when travelled forward), or slope in
    /// percent (positive = uphill when travelled forward).
    public var value: Double

    /// Creates a profile point.
    public init(offset: Double, value: Double) {
        self.offset = offset
        self.value = value
    }
}

/// A directed road link between two junctions (or attribute-change points) with its attributes.
public struct RoadLink: Hashable, Sendable, Codable {
    /// The link's identifier in the map.
    public var id: LinkID
    /// The OSM way this link was cut from.
    public var wayID: Int64
    /// The node at the first geometry point.
    public var startNode: NodeID
    /// The node at the last geometry point.
    public var endNode: NodeID
    /// The shape, at least two points.
    public var geometry: [GeoPoint]
    /// Length along the geometry, metres.
    public var length: Double
    /// The OSM highway class.
    public var highway: HighwayClass
    /// The form of way.
    public var formOfWay: FormOfWay
    /// The street name (`name`), if any.
    public var name: String?
    /// The road number (`ref`), if any.
    public var ref: String?
    /// Allowed travel directions.
    public var oneway: Oneway
    /// Attributes when travelled forward.
    public var forward: DirectionalAttributes
    /// Attributes when travelled backward.
    public var backward: DirectionalAttributes
    /// In a tunnel (`nil` unknown).
    public var tunnel: Bool?
    /// On a bridge (`nil` unknown).
    public var bridge: Bool?
    /// Inside a built-up area (`nil` unknown).
    public var builtUpArea: Bool?
    /// Physically divided from the opposite direction (`nil` unknown).
    public var dividedRoad: Bool?
    /// ISO 3166-1 numeric country code, 0 when unknown.
    public var countryCode: UInt16
    /// Project-defined region code (see the map docs), 0 when unknown.
    public var regionCode: UInt16
    /// Curvature change points, sorted by offset, in the forward direction.
    public var curvature: [ProfilePoint]
    /// Slope change points, sorted by offset, in the forward direction.
    public var slope: [ProfilePoint]
    /// Cameras, traffic signals, … sorted by offset.
    public var features: [PointFeature]

    /// Creates a link. `length` defaults to the geometry's length.
    public init(
        id: LinkID, wayID: Int64, startNode: NodeID, endNode: NodeID, geometry: [GeoPoint],
        length: Double? = nil, highway: HighwayClass, formOfWay: FormOfWay = .singleCarriageway,
        name: String? = nil, ref: String? = nil, oneway: Oneway = .no,
        forward: DirectionalAttributes = .init(), backward: DirectionalAttributes = .init(),
        tunnel: Bool? = nil, bridge: Bool? = nil, builtUpArea: Bool? = nil, dividedRoad: Bool? = nil,
        countryCode: UInt16 = 0, regionCode: UInt16 = 0, curvature: [ProfilePoint] = [],
        slope: [ProfilePoint] = [], features: [PointFeature] = []
    ) {
        self.id = id
        self.wayID = wayID
        self.startNode = startNode
        self.endNode = endNode
        self.geometry = geometry
        self.length = length ?? geometry.polylineLength
        self.highway = highway
        self.formOfWay = formOfWay
        self.name = name
        self.ref = ref
        self.oneway = oneway
        self.forward = forward
        self.backward = backward
        self.tunnel = tunnel
        self.bridge = bridge
        self.builtUpArea = builtUpArea
        self.dividedRoad = dividedRoad
        self.countryCode = countryCode
        self.regionCode = regionCode
        self.curvature = curvature
        self.slope = slope
        self.features = features
    }

    /// The attributes for travel in `direction`.
    public func attributes(_ direction: LinkDirection) -> DirectionalAttributes {
        direction == .forward ? forward : backward
    }

    /// The node a vehicle reaches at the end of the link when travelling in `direction`.
    public func exitNode(_ direction: LinkDirection) -> NodeID { direction == .forward ? endNode : startNode }

    /// The node a vehicle enters the link at when travelling in `direction`.
    public func entryNode(_ direction: LinkDirection) -> NodeID { direction == .forward ? startNode : endNode }
}

/// A turn restriction: from a link, via a node, to a link (OSM `type=restriction`).
public struct TurnRestriction: Hashable, Sendable, Codable {
    /// `no_*` forbids the manoeuvre; `only_*` forbids every other one from `from` at `via`.
    public enum Kind: UInt8, Hashable, Sendable, Codable { case prohibitory, mandatory }
    /// The link the vehicle comes from.
    public var from: LinkID
    /// The junction.
    public var via: NodeID
    /// The link the vehicle turns into.
    public var to: LinkID
    /// Prohibitory (`no_left_turn`, …) or mandatory (`only_straight_on`, …).
    public var kind: Kind

    /// Creates a turn restriction.
    public init(from: LinkID, via: NodeID, to: LinkID, kind: Kind) {
        self.from = from
        self.via = via
        self.to = to
        self.kind = kind
    }

    /// Whether `restrictions` (those from one link via one node) let a vehicle turn into `link`:
    /// where one is mandatory only into what a mandatory one names, else into anything no
    /// prohibitory one names.
    public static func permit(_ restrictions: [TurnRestriction], turnInto link: LinkID) -> Bool {
        var anyMandatory = false
        for restriction in restrictions where restriction.kind == .mandatory {
            if restriction.to == link { return true }
            anyMandatory = true
        }
        return !anyMandatory && !restrictions.contains { $0.kind == .prohibitory && $0.to == link }
    }
}

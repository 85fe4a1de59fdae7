import RoadMap

/// Identifies a road object. Stable for as long as the map does not change: the same camera,
/// tunnel or zone has the same identifier on every path and at every update, which is what
/// ``RoadObjectTracker`` relies on to raise each event once.
///
/// Built-in objects are named by type and where the map holds them (`tunnel:w4711` for the tunnel
/// of OSM way 4711, `fixed_speed_camera:L12@3456` for the camera 34.56 m along link 12,
/// `average_speed_zone:r99` for enforcement relation 99); user-defined objects by the client.
public struct RoadObjectID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The identifier as text.
    public var rawValue: String
    /// Creates an identifier from its text.
    public init(rawValue: String) { self.rawValue = rawValue }
    public static func < (lhs: RoadObjectID, rhs: RoadObjectID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// What a road object carries besides its type.
public struct RoadObjectAttributes: Hashable, Sendable {
    /// The enforced speed limit in km/h of a camera or zone, when known.
    public var enforcedSpeed: Double?
    /// A name (the road's name for a tunnel or bridge), when known.
    public var name: String?
    /// What a `hazard` warns of, when the map says (`hazard=*`).
    public var hazard: HazardKind?

    /// Creates attributes.
    public init(enforcedSpeed: Double? = nil, name: String? = nil, hazard: HazardKind? = nil) {
        self.enforcedSpeed = enforcedSpeed
        self.name = name
        self.hazard = hazard
    }
}

/// Something located on the road: a safety location, a tunnel, a border crossing, an incident, a
/// user-defined object.
public struct RoadObject: Hashable, Sendable {
    /// Its identifier.
    public var id: RoadObjectID
    /// What it is.
    public var type: RoadObjectType
    /// Its attributes.
    public var attributes: RoadObjectAttributes

    /// Creates a road object.
    public init(id: RoadObjectID, type: RoadObjectType, attributes: RoadObjectAttributes = .init()) {
        self.id = id
        self.type = type
        self.attributes = attributes
    }
}

/// A road object where it lies along one path of the horizon tree.
///
/// A point object has `start == end`. A stretch that runs past the end of the path is clipped
/// there (``isClippedAtEnd``): its end grows as the path grows. One that began before the first
/// link still on the path starts at that link (``isClippedAtStart``).
public struct PathRoadObject: Hashable, Sendable {
    /// The object.
    public var object: RoadObject
    /// The path it lies on.
    public var path: PathID
    /// Metres from the path start to where the object begins.
    public var start: Double
    /// Metres from the path start to where it ends (as far as the path reaches).
    public var end: Double
    /// Whether the object began before the path's first link, so `start` is where the path starts.
    public var isClippedAtStart: Bool
    /// Whether the object goes on past the path's end, so `end` is where the path ends.
    public var isClippedAtEnd: Bool

    /// Creates a located object.
    public init(
        object: RoadObject, path: PathID, start: Double, end: Double, isClippedAtStart: Bool = false,
        isClippedAtEnd: Bool = false
    ) {
        self.object = object
        self.path = path
        self.start = start
        self.end = end
        self.isClippedAtStart = isClippedAtStart
        self.isClippedAtEnd = isClippedAtEnd
    }

    /// Whether the object is a point (`start == end`).
    public var isPoint: Bool { start == end }
}

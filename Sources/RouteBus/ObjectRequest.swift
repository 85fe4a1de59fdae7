import RoadMap

/// A call of the custom-object interface (`org.adasis.Horizon1.Objects`), decoded from its D-Bus
/// message: the D-Bus equivalents of `adasis objects add|remove|clear|list`.
public enum ObjectRequest: Hashable, Sendable {
    /// Match this GeoJSON Feature (the text as the caller sent it) to the map and store it.
    case add(feature: String)
    /// Remove the object with this id.
    case remove(id: String)
    /// Remove every object.
    case clear
    /// Describe every stored object.
    case list
}

/// One stored object as `ListObjects` describes it.
public struct ObjectSummary: Hashable, Sendable {
    /// The client's id.
    public var id: String
    /// `point`, `line` or `polygon`.
    public var geometry: String
    /// Where it was matched, by link.
    public var pieces: [CustomObjectPiece]

    /// Creates a summary.
    public init(id: String, geometry: String, pieces: [CustomObjectPiece]) {
        self.id = id
        self.geometry = geometry
        self.pieces = pieces
    }
}

/// The answer to an ``ObjectRequest`` that succeeded.
public enum ObjectReply: Hashable, Sendable {
    /// The object was stored with this id, matched to these pieces.
    case added(id: String, pieces: [CustomObjectPiece])
    /// The object was removed.
    case removed
    /// Every object was removed; this many were stored.
    case cleared(count: Int)
    /// The stored objects, in the order they were added.
    case objects([ObjectSummary])
}

/// Why an ``ObjectRequest`` was refused. The stored objects are unchanged; the D-Bus caller gets
/// the error named `org.adasis.Horizon1.Error.<kind>` with ``message``.
public struct ObjectRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is; the raw value is the last part of the D-Bus error name.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The text is not a GeoJSON Feature with an id and a Point, LineString or Polygon.
        case malformedGeoJSON = "MalformedGeoJSON"
        /// The geometry does not lie on the map's roads (a point far from any road, a polygon
        /// over none, a line that leaves the road).
        case notMatched = "NotMatched"
        /// An object with this id is stored already.
        case duplicateID = "DuplicateId"
        /// No object with this id is stored.
        case unknownID = "UnknownId"
        /// The object store beside the map cannot be read or written.
        case storeFailed = "StoreFailed"
        /// The map could not be read while matching.
        case mapUnreadable = "MapUnreadable"
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// What is wrong and what to do, for the caller.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The D-Bus error name, e.g. `org.adasis.Horizon1.Error.DuplicateId`.
    public var name: String { RouteRequestError.namePrefix + kind.rawValue }

    public var description: String { "\(name): \(message)" }
}

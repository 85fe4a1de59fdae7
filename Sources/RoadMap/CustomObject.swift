import Foundation

/// A road object the client defines itself (`user_defined`), as a GeoJSON Feature: an id, a
/// geometry (Point, LineString or Polygon) and, for a point, optionally the travel direction it
/// applies to.
public struct CustomObject: Hashable, Sendable, Codable {
    /// Where the object is.
    public enum Geometry: Hashable, Sendable, Codable {
        /// A point: matched to the nearest link, in both directions or the given one.
        case point(GeoPoint)
        /// A line: matched to the stretch of road it follows, in the direction it is drawn.
        case line([GeoPoint])
        /// A polygon (outer ring): matched to every part of a link inside it, both directions.
        case polygon([GeoPoint])
    }

    /// The client's identifier (the Feature's `id`, or `properties.id`).
    public var id: String
    /// The geometry.
    public var geometry: Geometry
    /// For a point, the travel direction as a compass bearing in degrees (`properties.heading`):
    /// only the direction of the matched link within 90° of it; `nil` for both directions.
    public var heading: Double?
    /// A name for people (`properties.name`), when given.
    public var name: String?

    /// Creates an object.
    public init(id: String, geometry: Geometry, heading: Double? = nil, name: String? = nil) {
        self.id = id
        self.geometry = geometry
        self.heading = heading
        self.name = name
    }
}

/// Why a GeoJSON text is not a usable custom object.
public struct CustomObjectGeoJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and what to write instead.
    public var problem: String

    /// Creates the error.
    public init(_ problem: String) { self.problem = problem }

    public var description: String { "malformed GeoJSON: \(problem)" }
}

extension CustomObject {
    /// Reads a GeoJSON Feature (RFC 7946): `{"type": "Feature", "id": "…", "geometry": {…},
    /// "properties": {"heading": 90, "name": "…"}}`. Coordinates are `[longitude, latitude]`; a
    /// polygon's outer ring must close (first point = last point) and have at least 4 points.
    ///
    /// - Throws: ``CustomObjectGeoJSONError`` naming the member that is missing or wrong.
    public init(geoJSON data: Data) throws(CustomObjectGeoJSONError) {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw CustomObjectGeoJSONError("not JSON (\(error.localizedDescription))")
        }
        guard let feature = parsed as? [String: Any] else { throw .init("expected a JSON object (a Feature)") }
        guard feature["type"] as? String == "Feature" else {
            throw .init("expected \"type\": \"Feature\", found \(String(describing: feature["type"] ?? "nothing"))")
        }
        let properties = feature["properties"] as? [String: Any] ?? [:]
        let rawID = feature["id"] ?? properties["id"]
        let id: String
        switch rawID {
        case let text as String: id = text
        case let number as NSNumber: id = number.stringValue
        default: throw .init("the Feature has no \"id\" (a string or number; or properties.id)")
        }
        guard !id.isEmpty, id.count <= 200, !id.contains(where: { $0.isNewline }) else {
            throw .init("the id must be 1 to 200 characters on one line")
        }
        if let colon = id.firstIndex(of: ":"), RoadObjectType(rawValue: String(id[..<colon])) != nil {
            throw .init(
                "the id '\(id)' looks like the map's own objects' ids (TYPE:…), which the horizon reports beside it; "
                    + "choose an id without the prefix '\(id[..<colon]):'")
        }
        guard let geometry = feature["geometry"] as? [String: Any] else { throw .init("the Feature has no geometry") }
        let coordinates = geometry["coordinates"]
        switch geometry["type"] as? String {
        case "Point"?:
            self.geometry = .point(try Self.position(coordinates, "geometry.coordinates"))
        case "LineString"?:
            let line = try Self.positions(coordinates, "geometry.coordinates")
            guard line.count >= 2 else { throw .init("a LineString needs at least 2 positions") }
            self.geometry = .line(line)
        case "Polygon"?:
            guard let rings = coordinates as? [Any], let outer = rings.first else {
                throw .init("a Polygon's coordinates are a list of rings")
            }
            let ring = try Self.positions(outer, "geometry.coordinates[0]")
            guard ring.count >= 4, ring.first == ring.last else {
                throw .init("a Polygon's outer ring needs at least 4 positions, the last equal to the first")
            }
            self.geometry = .polygon(ring)
        case let other:
            throw .init(
                "geometry type \(other.map { "'\($0)'" } ?? "missing"): use Point, LineString or Polygon")
        }
        self.id = id
        switch properties["heading"] {
        case nil, is NSNull: heading = nil
        case let number as NSNumber where (0...360).contains(number.doubleValue): heading = number.doubleValue
        default: throw .init("properties.heading must be a bearing in degrees, 0 to 360")
        }
        name = properties["name"] as? String
    }

    private static func position(_ value: Any?, _ member: String) throws(CustomObjectGeoJSONError) -> GeoPoint {
        guard let pair = value as? [NSNumber], pair.count >= 2 else {
            throw .init("\(member) must be a position [longitude, latitude]")
        }
        let longitude = pair[0].doubleValue, latitude = pair[1].doubleValue
        guard (-180...180).contains(longitude), (-90...90).contains(latitude) else {
            throw .init("\(member) [\(longitude), \(latitude)] is outside [-180…180, -90…90]")
        }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    private static func positions(_ value: Any?, _ member: String) throws(CustomObjectGeoJSONError) -> [GeoPoint] {
        guard let list = value as? [Any] else { throw .init("\(member) must be a list of positions") }
        var result: [GeoPoint] = []
        for (index, item) in list.enumerated() { result.append(try position(item, "\(member)[\(index)]")) }
        return result
    }
}

/// Where a custom object lies on one link: forward offsets `start…end` (equal for a point), for
/// one travel direction or both.
public struct CustomObjectPiece: Hashable, Sendable, Codable {
    /// The link.
    public var link: LinkID
    /// The travel direction it applies to, `nil` for both.
    public var direction: LinkDirection?
    /// Metres from the link's first geometry point where the piece begins.
    public var start: Double
    /// Metres from the link's first geometry point where it ends (≥ `start`).
    public var end: Double

    /// Creates a piece.
    public init(link: LinkID, direction: LinkDirection?, start: Double, end: Double) {
        self.link = link
        self.direction = direction
        self.start = start
        self.end = end
    }
}

/// A matched custom object: its number in the store (the zone number its pieces carry), the
/// client's id for it and where it lies.
public struct PlacedCustomObject: Hashable, Sendable, Codable {
    /// The store's number for the object (stable while it is stored).
    public var number: Int64
    /// The client's identifier (``CustomObject/id``), which the horizon reports and events name;
    /// `nil`: the object is named `user_defined:rN` after its number.
    public var id: String?
    /// Where it lies, by link.
    public var pieces: [CustomObjectPiece]

    /// Creates a placed object.
    public init(number: Int64, id: String? = nil, pieces: [CustomObjectPiece]) {
        self.number = number
        self.id = id
        self.pieces = pieces
    }
}

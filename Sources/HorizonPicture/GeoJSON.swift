import Foundation
import RoadMap

/// A GeoJSON feature (RFC 7946): a point or a line with flat properties, as a map renderer such
/// as MapLibre draws and filters them.
public struct GeoJSONFeature: Encodable, Sendable, Equatable {
    /// The shape.
    public enum Geometry: Sendable, Equatable {
        /// One position.
        case point(GeoPoint)
        /// A line through the positions, in order.
        case line([GeoPoint])
    }

    /// A property value.
    public enum Value: Encodable, Sendable, Equatable {
        /// Text.
        case string(String)
        /// A number.
        case number(Double)
        /// A whole number.
        case integer(Int64)
        /// True or false.
        case bool(Bool)

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            }
        }
    }

    /// The shape.
    public var geometry: Geometry
    /// The properties.
    public var properties: [String: Value]

    /// A feature.
    public init(geometry: Geometry, properties: [String: Value]) {
        self.geometry = geometry
        self.properties = properties
    }

    private enum Keys: String, CodingKey { case type, geometry, properties, coordinates }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("Feature", forKey: .type)
        try container.encode(properties, forKey: .properties)
        var shape = container.nestedContainer(keyedBy: Keys.self, forKey: .geometry)
        switch geometry {
        case .point(let point):
            try shape.encode("Point", forKey: .type)
            try shape.encode(Self.position(point), forKey: .coordinates)
        case .line(let points):
            try shape.encode("LineString", forKey: .type)
            try shape.encode(points.map(Self.position), forKey: .coordinates)
        }
    }

    /// Longitude, latitude, rounded to 1e-7 degrees (about 1 cm).
    static func position(_ point: GeoPoint) -> [Double] {
        [(point.longitude * 1e7).rounded() / 1e7, (point.latitude * 1e7).rounded() / 1e7]
    }
}

/// A GeoJSON feature collection.
public struct GeoJSONFeatureCollection: Encodable, Sendable, Equatable {
    /// The features, drawn in order.
    public var features: [GeoJSONFeature]

    /// A collection of `features`.
    public init(features: [GeoJSONFeature]) { self.features = features }

    private enum Keys: String, CodingKey { case type, features }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("FeatureCollection", forKey: .type)
        try container.encode(features, forKey: .features)
    }

    /// The collection as compact JSON with sorted keys (the same bytes for the same collection).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

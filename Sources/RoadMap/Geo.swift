import Foundation

/// A WGS-84 position in degrees.
public struct GeoPoint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Latitude in degrees, north positive.
    public var latitude: Double
    /// Longitude in degrees, east positive.
    public var longitude: Double

    /// Creates a point from latitude and longitude in degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Mean Earth radius in metres (IUGG).
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres (haversine).
    public func distance(to other: GeoPoint) -> Double {
        let lat1 = latitude * .pi / 180, lat2 = other.latitude * .pi / 180
        let dLat = lat2 - lat1
        let dLon = (other.longitude - longitude) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * GeoPoint.earthRadius * asin(min(1, sqrt(a)))
    }

    /// Initial bearing towards `other` in degrees clockwise from north, 0..<360.
    public func bearing(to other: GeoPoint) -> Double {
        let lat1 = latitude * .pi / 180, lat2 = other.latitude * .pi / 180
        let dLon = (other.longitude - longitude) * .pi / 180
        let y = sin(dLon) * cos(lat2)
        let x = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(dLon)
        let degrees = atan2(y, x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    public var description: String { "(\(latitude), \(longitude))" }
}

/// An equirectangular projection around a reference point: metres east (x) and north (y).
///
/// Accurate to well under a metre within a few kilometres of the reference, which is all the
/// matcher and the curvature computation need, and much cheaper than geodesic formulas.
public struct LocalProjection: Sendable {
    /// The reference point (origin of the plane).
    public let origin: GeoPoint
    private let metresPerDegreeLatitude: Double
    private let metresPerDegreeLongitude: Double

    /// Creates a projection centred on `origin`.
    public init(origin: GeoPoint) {
        self.origin = origin
        metresPerDegreeLatitude = GeoPoint.earthRadius * .pi / 180
        metresPerDegreeLongitude = metresPerDegreeLatitude * cos(origin.latitude * .pi / 180)
    }

    /// Projects a point to (x east, y north) metres.
    public func project(_ point: GeoPoint) -> (x: Double, y: Double) {
        (
            (point.longitude - origin.longitude) * metresPerDegreeLongitude,
            (point.latitude - origin.latitude) * metresPerDegreeLatitude
        )
    }

    /// The inverse of ``project(_:)``.
    public func unproject(x: Double, y: Double) -> GeoPoint {
        GeoPoint(
            latitude: origin.latitude + y / metresPerDegreeLatitude,
            longitude: origin.longitude + x / metresPerDegreeLongitude)
    }
}

/// The closest point on a polyline to a query point.
public struct PolylineProjection: Hashable, Sendable {
    /// Distance along the polyline from its first point to the projected point, metres.
    public var offset: Double
    /// Distance from the query point to the polyline, metres.
    public var distance: Double
    /// Bearing of the polyline at the projected point, degrees clockwise from north.
    public var bearing: Double
    /// The projected point.
    public var point: GeoPoint
}

extension Array where Element == GeoPoint {
    /// The length of the polyline in metres.
    public var polylineLength: Double {
        guard count > 1 else { return 0 }
        var total = 0.0
        for i in 1..<count { total += self[i - 1].distance(to: self[i]) }
        return total
    }

    /// Whether the polyline comes within `radius` metres of `point` (its ``project(_:)``): what
    /// a "links within `radius` of a point" query keeps.
    public func passes(within radius: Double, of point: GeoPoint) -> Bool {
        guard let projection = project(point) else { return false }
        return projection.distance <= radius
    }

    /// Projects `point` onto the polyline (nearest point), using a local plane around `point`.
    /// Returns `nil` for an empty polyline.
    public func project(_ point: GeoPoint) -> PolylineProjection? {
        guard let first = first else { return nil }
        if count == 1 {
            return PolylineProjection(offset: 0, distance: point.distance(to: first), bearing: 0, point: first)
        }
        let plane = LocalProjection(origin: point)
        var best: PolylineProjection?
        var along = 0.0
        var previous = plane.project(first)
        for i in 1..<count {
            let current = plane.project(self[i])
            let dx = current.x - previous.x, dy = current.y - previous.y
            let segmentLength = (dx * dx + dy * dy).squareRoot()
            var t = 0.0
            if segmentLength > 0 {
                t = Swift.max(0, Swift.min(1, (-previous.x * dx - previous.y * dy) / (segmentLength * segmentLength)))
            }
            let px = previous.x + t * dx, py = previous.y + t * dy
            let distance = (px * px + py * py).squareRoot()
            if best.map({ distance < $0.distance }) ?? true {
                var bearing = atan2(dx, dy) * 180 / .pi
                if bearing < 0 { bearing += 360 }
                best = PolylineProjection(
                    offset: along + t * segmentLength, distance: distance,
                    bearing: bearing, point: plane.unproject(x: px, y: py))
            }
            along += segmentLength
            previous = current
        }
        return best
    }

    /// The point at `offset` metres along the polyline (clamped to its ends) and the bearing there.
    public func point(atOffset offset: Double) -> (point: GeoPoint, bearing: Double)? {
        guard let found = location(atOffset: offset) else { return nil }
        return (found.point, found.segment.map { $0.from.bearing(to: $0.to) } ?? 0)
    }
}

extension BidirectionalCollection where Element == GeoPoint {
    /// The point at `offset` metres along the polyline (clamped to its ends) and the segment it
    /// lies on (`nil` for a single point); `nil` for an empty polyline. Any bidirectional view of
    /// points works, so a shape driven backward is read through `reversed()` without a copy.
    @inlinable
    public func location(atOffset offset: Double) -> (point: GeoPoint, segment: (from: GeoPoint, to: GeoPoint)?)? {
        guard var a = first else { return nil }
        var remaining = Swift.max(0, offset)
        var position = index(after: startIndex)
        while position != endIndex {
            let b = self[position]
            let length = a.distance(to: b)
            formIndex(after: &position)
            if remaining <= length || position == endIndex {
                let t = length > 0 ? Swift.min(1, remaining / length) : 0
                let point = GeoPoint(
                    latitude: a.latitude + (b.latitude - a.latitude) * t,
                    longitude: a.longitude + (b.longitude - a.longitude) * t)
                return (point, (a, b))
            }
            remaining -= length
            a = b
        }
        return (a, nil)
    }
}

import Foundation
import RoadMap

extension PlannedRoute {
    /// The route's shape, from the placed origin to the placed destination, in driving order.
    public func shape(in network: any RoadNetwork) throws -> [GeoPoint] {
        var points: [GeoPoint] = []
        for leg in legs {
            for (index, directed) in leg.links.enumerated() {
                let link = try network.link(directed.link)
                var from = 0.0, to = link.length
                if index == 0 { from = leg.from.fraction(directed.direction) * link.length }
                if index == leg.links.count - 1 { to = leg.to.fraction(directed.direction) * link.length }
                var geometry = link.geometry
                if directed.direction == .backward { geometry.reverse() }
                for point in Self.cut(geometry, from: from, to: to) where points.last != point { points.append(point) }
            }
        }
        return points
    }

    /// The part of `polyline` between `from` and `to` metres along it.
    static func cut(_ polyline: [GeoPoint], from: Double, to: Double) -> [GeoPoint] {
        guard polyline.count > 1, to > from else { return polyline.point(atOffset: from).map { [$0.point] } ?? [] }
        var result: [GeoPoint] = []
        if let start = polyline.point(atOffset: from) { result.append(start.point) }
        var along = 0.0
        for index in 1..<polyline.count {
            along += polyline[index - 1].distance(to: polyline[index])
            if along > from && along < to { result.append(polyline[index]) }
        }
        if let end = polyline.point(atOffset: to) { result.append(end.point) }
        return result
    }

    /// A GeoJSON FeatureCollection: the route as a LineString with its length, duration and links,
    /// and each requested and placed point.
    public func geoJSON(in network: any RoadNetwork) throws -> String {
        func coordinates(_ point: GeoPoint) -> [Double] { [point.longitude, point.latitude] }
        var features: [[String: Any]] = [
            [
                "type": "Feature",
                "geometry": ["type": "LineString", "coordinates": try shape(in: network).map(coordinates)],
                "properties": [
                    "length_m": (length * 10).rounded() / 10, "duration_s": (duration * 10).rounded() / 10,
                    "legs": legs.count, "links": links.map(\.description),
                ] as [String: Any],
            ]
        ]
        let stops = [legs[0].from] + legs.map(\.to)
        for (index, stop) in stops.enumerated() {
            let role = index == 0 ? "origin" : index == stops.count - 1 ? "destination" : "via"
            features.append([
                "type": "Feature", "geometry": ["type": "Point", "coordinates": coordinates(stop.placed)],
                "properties": [
                    "role": role, "link": stop.link.description,
                    "requested": coordinates(stop.requested),
                    "distance_m": (stop.distance * 10).rounded() / 10,
                ] as [String: Any],
            ])
        }
        let collection: [String: Any] = ["type": "FeatureCollection", "features": features]
        let data = try JSONSerialization.data(withJSONObject: collection, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

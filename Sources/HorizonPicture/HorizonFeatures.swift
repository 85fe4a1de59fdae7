import Horizon
import RoadMap

/// The horizon at one moment as GeoJSON features for a map view: the main path ahead link by
/// link, its trailing part, the side paths by level, the fix and the matched position, the road
/// objects along the paths and the safety locations the legal filter took out.
///
/// Every feature has `kind`: `main_path` (with `way_id`, `link`, `distance_m` from the vehicle
/// to the link's start, `on_route`), `trailing`, `side_path` (`path_id`, `level`, `probability`,
/// `way_id`), `fix`, `matched`, `object` (`id`, `type`, `path_id`, `main`, `enforced_speed_kmh`
/// when known; a point or the stretch it covers) or `filtered_object` (`type`, `filtered` true:
/// a safety location the legal rules keep from the provider's output).
public enum HorizonFeatures {
    /// The features of `engine`'s tree after the match `result` of `fix`, on `network`.
    public static func collection(
        result: MatchResult, fix: GeoPoint, engine: HorizonEngine, network: some RoadNetwork
    ) throws -> GeoJSONFeatureCollection {
        var features: [GeoJSONFeature] = []
        var objects: [GeoJSONFeature] = []
        let mainID = engine.tree.mainPathID
        for path in engine.tree.sortedPaths {
            var shapes: [(link: PathLink, shape: [GeoPoint])] = []
            for pathLink in path.links {
                let road = try network.link(pathLink.link.link)
                let shape = pathLink.link.direction == .forward ? road.geometry : road.geometry.reversed()
                shapes.append((pathLink, shape))
                objects += filteredSafetyLocations(pathLink, road: road, shape: shape)
            }
            if path.id == mainID {
                features += mainPath(shapes, vehicle: engine.vehicleOffset ?? path.startOffset)
            } else {
                features += shapes.map { link, shape in
                    GeoJSONFeature(
                        geometry: .line(shape),
                        properties: [
                            "kind": .string("side_path"), "path_id": .integer(Int64(path.id.rawValue)),
                            "level": .integer(Int64(path.level)), "probability": .number(round(path.probability, 1000)),
                            "way_id": .integer(link.wayID),
                        ])
                }
            }
            for object in engine.roadObjects(on: path.id) {
                guard let geometry = Self.geometry(of: object, along: shapes) else { continue }
                var properties: [String: GeoJSONFeature.Value] = [
                    "kind": .string("object"), "id": .string(object.object.id.rawValue),
                    "type": .string(object.object.type.rawValue), "path_id": .integer(Int64(path.id.rawValue)),
                    "main": .bool(path.id == mainID), "filtered": .bool(false),
                ]
                if let speed = object.object.attributes.enforcedSpeed {
                    properties["enforced_speed_kmh"] = .number(speed)
                }
                objects.append(GeoJSONFeature(geometry: geometry, properties: properties))
            }
        }
        features.append(GeoJSONFeature(geometry: .point(fix), properties: ["kind": .string("fix")]))
        if let matched = result.state.position?.point {
            features.append(
                GeoJSONFeature(
                    geometry: .point(matched),
                    properties: ["kind": .string("matched"), "state": .string(result.state.name)]))
        }
        return GeoJSONFeatureCollection(features: features + objects)
    }

    /// The main path split at the vehicle: its links ahead (each a feature, the current one from
    /// the vehicle on) and the trailing part behind as one line.
    static func mainPath(_ shapes: [(link: PathLink, shape: [GeoPoint])], vehicle: Double) -> [GeoJSONFeature] {
        var trailing: [GeoPoint] = []
        var ahead: [GeoJSONFeature] = []
        for (link, shape) in shapes {
            var part = shape
            if link.endOffset <= vehicle {
                trailing.append(contentsOf: trailing.last == shape.first ? Array(shape.dropFirst()) : shape)
                continue
            }
            if link.startOffset < vehicle {
                let (before, after) = HorizonScene.split(shape, at: (vehicle - link.startOffset) * scale(link, shape))
                trailing.append(contentsOf: trailing.last == before.first ? Array(before.dropFirst()) : before)
                part = after
            }
            ahead.append(
                GeoJSONFeature(
                    geometry: .line(part),
                    properties: [
                        "kind": .string("main_path"), "way_id": .integer(link.wayID),
                        "link": .string(link.link.description),
                        "distance_m": .number(round(max(0, link.startOffset - vehicle), 10)),
                        "on_route": .bool(link.isOnRoute),
                    ]))
        }
        let behind =
            trailing.count >= 2
            ? [GeoJSONFeature(geometry: .line(trailing), properties: ["kind": .string("trailing")])] : []
        return behind + ahead
    }

    /// Where `object` lies: a point, or the stretch of the path shapes it covers.
    static func geometry(
        of object: PathRoadObject, along shapes: [(link: PathLink, shape: [GeoPoint])]
    ) -> GeoJSONFeature.Geometry? {
        var stretch: [GeoPoint] = []
        for (link, shape) in shapes where link.endOffset >= object.start && link.startOffset <= object.end {
            let factor = scale(link, shape)
            let from = (max(object.start, link.startOffset) - link.startOffset) * factor
            let to = (min(object.end, link.endOffset) - link.startOffset) * factor
            if object.start == object.end {
                return shape.point(atOffset: from).map { .point($0.point) }
            }
            let piece = HorizonScene.split(HorizonScene.split(shape, at: to).before, at: from).after
            stretch.append(contentsOf: stretch.last == piece.first ? Array(piece.dropFirst()) : piece)
        }
        return stretch.count >= 2 ? .line(stretch) : stretch.first.map { .point($0) }
    }

    /// Safety locations on `road` in the driving direction that the legal filter removed from `link`.
    static func filteredSafetyLocations(_ link: PathLink, road: RoadLink, shape: [GeoPoint]) -> [GeoJSONFeature] {
        let unfiltered = PathLink(
            road: road, direction: link.link.direction, startOffset: link.startOffset, exitBranches: [],
            routeIndex: nil)
        return unfiltered.features.compactMap { feature in
            guard let type = feature.safetyLocationType, !link.features.contains(feature),
                let point = shape.point(atOffset: (feature.offset - link.startOffset) * scale(link, shape))
            else { return nil }
            return GeoJSONFeature(
                geometry: .point(point.point),
                properties: [
                    "kind": .string("filtered_object"), "type": .string(type.rawValue), "filtered": .bool(true),
                    "link": .string(link.link.description),
                ])
        }
    }

    /// Shape metres per path metre on `link` (the stored length and the drawn shape differ slightly).
    static func scale(_ link: PathLink, _ shape: [GeoPoint]) -> Double {
        var length = 0.0
        for index in shape.indices.dropFirst() { length += shape[index - 1].distance(to: shape[index]) }
        return link.length > 0 && length > 0 ? length / link.length : 1
    }

    private static func round(_ value: Double, _ factor: Double) -> Double { (value * factor).rounded() / factor }
}

import ADASISProvider
import ADASISv2
import HorizonPicture
import RoadMap

/// The horizon a receiver rebuilt from the bus (``HorizonReconstructor``) as GeoJSON features,
/// with the same `kind`s as the replay's (``HorizonFeatures``), so the style draws both alike.
///
/// What can be placed on the map: a path is drawn from its PROFILE LONG longitude/latitude spots
/// (the shape points, sent with `--preset all` or `messages.preset = "all"`), cut into links at
/// its PROFILE LONG link-identifier spots (the OSM way id, low 32 bits: property `way_id`). The
/// vehicle (`matched`, from POSITION) and the road objects and cameras are placed at their offsets
/// along those shapes. A path without shape points cannot be placed (the default preset sends
/// none): it is listed in the panel only, and counted in ``unplaced``.
public struct ReconstructedFeatures {
    /// The features: `trailing`, `main_path` (`way_id` when known, `offset_m`, `distance_m`),
    /// `side_path` (`path_id`, `level`, `probability`, `way_id`), `matched` (the POSITION,
    /// `state` "position", `path_id`, `offset_m`), `object` (`type`, `path_id`, `main`,
    /// `enforced_speed_kmh`).
    public var collection: GeoJSONFeatureCollection
    /// Path indices held but not drawn, for want of shape points (or of a STUB placing them).
    public var unplaced: [UInt8]

    /// The features of `horizon`.
    public init(_ horizon: ReconstructedHorizon) {
        var features: [GeoJSONFeature] = []
        var objects: [GeoJSONFeature] = []
        var unplaced: [UInt8] = []
        let levels = Self.levels(horizon)
        for (index, path) in horizon.paths.sorted(by: { $0.key < $1.key }) {
            let shape = PathShape(path)
            guard let level = levels[index], shape.points.count >= 2 else {
                unplaced.append(index)
                continue
            }
            let main = index == horizon.mainPathIndex
            let links = Self.links(of: path, shape: shape)
            if main {
                let vehicle = horizon.vehicleOffset ?? shape.points[0].offset
                let behind = shape.slice(from: shape.points[0].offset, to: vehicle)
                if behind.count >= 2 {
                    features.append(GeoJSONFeature(geometry: .line(behind), properties: ["kind": .string("trailing")]))
                }
                for link in links where link.end > vehicle {
                    let start = max(link.start, vehicle)
                    let line = shape.slice(from: start, to: link.end)
                    guard line.count >= 2 else { continue }
                    var properties: [String: GeoJSONFeature.Value] = [
                        "kind": .string("main_path"), "path_id": .integer(Int64(index)),
                        "offset_m": .integer(Int64(link.start)), "distance_m": .integer(Int64(start - vehicle)),
                    ]
                    if let way = link.way { properties["way_id"] = .integer(way) }
                    features.append(GeoJSONFeature(geometry: .line(line), properties: properties))
                }
                if let offset = horizon.vehicleOffset, let point = shape.point(at: offset) {
                    features.append(
                        GeoJSONFeature(
                            geometry: .point(point),
                            properties: [
                                "kind": .string("matched"), "state": .string("position"),
                                "path_id": .integer(Int64(index)), "offset_m": .integer(Int64(offset)),
                            ]))
                }
            } else {
                let probability = path.announcingStub?.probabilityPercent ?? 0
                for link in links {
                    let line = shape.slice(from: link.start, to: link.end)
                    guard line.count >= 2 else { continue }
                    var properties: [String: GeoJSONFeature.Value] = [
                        "kind": .string("side_path"), "path_id": .integer(Int64(index)),
                        "level": .integer(Int64(level)), "probability": .number((probability * 10).rounded() / 1000),
                        "offset_m": .integer(Int64(link.start)),
                    ]
                    if let way = link.way { properties["way_id"] = .integer(way) }
                    features.append(GeoJSONFeature(geometry: .line(line), properties: properties))
                }
            }
            objects += Self.objects(on: path, shape: shape, main: main)
        }
        collection = GeoJSONFeatureCollection(features: features + objects)
        self.unplaced = unplaced
    }

    /// Each placed path's level in the tree: 0 for the main path, its sub-paths 1, theirs 2 …
    static func levels(_ horizon: ReconstructedHorizon) -> [UInt8: Int] {
        guard let main = horizon.mainPathIndex else { return [:] }
        var levels: [UInt8: Int] = [main: 0]
        var queue = [main]
        while !queue.isEmpty {
            let index = queue.removeFirst()
            for child in horizon.subPaths(of: index) where levels[child] == nil {
                levels[child] = levels[index]! + 1
                queue.append(child)
            }
        }
        return levels
    }

    /// The path's links: from each link-identifier spot to the next (the last to the shape's
    /// end); one link without a way id for a path that sends none.
    static func links(of path: ReconstructedPath, shape: PathShape) -> [(start: Int, end: Int, way: Int64?)] {
        let end = shape.points.last!.offset
        let spots = (path.profiles[.long(.linkIdentifier)] ?? [:]).sorted { $0.key < $1.key }.filter { $0.key < end }
        guard !spots.isEmpty else { return [(shape.points[0].offset, end, nil)] }
        var links: [(start: Int, end: Int, way: Int64?)] = []
        if spots[0].key > shape.points[0].offset { links.append((shape.points[0].offset, spots[0].key, nil)) }
        for (position, spot) in spots.enumerated() {
            let next = position + 1 < spots.count ? spots[position + 1].key : end
            links.append((spot.key, next, Int64(spot.value.value)))
        }
        return links
    }

    /// Cameras (PROFILE SHORT 16), traffic signals (17) and road objects (18, 19, 20) of `path` at their offsets.
    static func objects(on path: ReconstructedPath, shape: PathShape, main: Bool) -> [GeoJSONFeature] {
        var result: [GeoJSONFeature] = []
        let common: [String: GeoJSONFeature.Value] = [
            "kind": .string("object"), "path_id": .integer(Int64(path.index)), "main": .bool(main),
            "filtered": .bool(false),
        ]
        for (type, name) in [(ProfileShortType.safetyCamera, "camera"), (.trafficSignals, "traffic_signals")] {
            for (offset, spot) in (path.profiles[.short(type)] ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let point = shape.point(at: offset) else { continue }
                var properties = common
                properties["type"] = .string(name)
                properties["offset_m"] = .integer(Int64(offset))
                properties["value"] = .integer(Int64(spot.value))
                result.append(GeoJSONFeature(geometry: .point(point), properties: properties))
            }
        }
        for object in path.objects {
            let start = object.start ?? shape.points[0].offset
            let end = object.end ?? shape.points.last!.offset
            var properties = common
            properties["type"] = .string(RoadObjectWireCode.type(object.code).map(\.rawValue) ?? "code \(object.code)")
            properties["offset_m"] = .integer(Int64(start))
            if object.value != 1023 { properties["enforced_speed_kmh"] = .integer(Int64(object.value)) }
            if object.isPoint || end <= start {
                guard let point = shape.point(at: start) else { continue }
                result.append(GeoJSONFeature(geometry: .point(point), properties: properties))
            } else {
                let line = shape.slice(from: start, to: end)
                guard line.count >= 2 else { continue }
                result.append(GeoJSONFeature(geometry: .line(line), properties: properties))
            }
        }
        return result
    }
}

/// A path's shape: its longitude/latitude spots by absolute offset, with positions between them
/// interpolated linearly by offset.
struct PathShape {
    /// The shape points by offset (each with both coordinates received).
    var points: [(offset: Int, point: GeoPoint)]

    init(_ path: ReconstructedPath) {
        let latitudes = path.profiles[.long(.latitude)] ?? [:]
        points = (path.profiles[.long(.longitude)] ?? [:]).sorted { $0.key < $1.key }.compactMap { offset, spot in
            guard let longitude = ValueCoding.longitudeDegrees(code: spot.value),
                let latitude = latitudes[offset].flatMap({ ValueCoding.latitudeDegrees(code: $0.value) })
            else { return nil }
            return (offset, GeoPoint(latitude: latitude, longitude: longitude))
        }
    }

    /// The position at `offset`; `nil` outside the shape.
    func point(at offset: Int) -> GeoPoint? {
        guard let first = points.first, let last = points.last, offset >= first.offset, offset <= last.offset else {
            return nil
        }
        let next = points.firstIndex { $0.offset >= offset }!
        guard points[next].offset != offset, next > 0 else { return points[next].point }
        let (a, b) = (points[next - 1], points[next])
        let f = Double(offset - a.offset) / Double(b.offset - a.offset)
        return GeoPoint(
            latitude: a.point.latitude + (b.point.latitude - a.point.latitude) * f,
            longitude: a.point.longitude + (b.point.longitude - a.point.longitude) * f)
    }

    /// The line from offset `from` to `to` (clamped to the shape): its ends and the points between.
    func slice(from: Int, to: Int) -> [GeoPoint] {
        guard let first = points.first, let last = points.last else { return [] }
        let (low, high) = (max(from, first.offset), min(to, last.offset))
        guard low < high, let start = point(at: low), let end = point(at: high) else { return [] }
        return [start] + points.filter { $0.offset > low && $0.offset < high }.map(\.point) + [end]
    }
}

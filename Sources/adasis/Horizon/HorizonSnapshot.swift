import Foundation
import Horizon
import RoadMap
import RoadMapStore

/// The JSON line `adasis horizon` prints for one fix.
struct HorizonSnapshot: Encodable {
    struct WayStretch: Encodable, Equatable {
        var way_id: Int64
        var length_m: Double
    }

    struct SidePath: Encodable {
        var path_id: Int
        var level: Int
        var parent_path_id: Int?
        var branch_distance_m: Double?
        /// Metres along the tree from the vehicle to the path's first link (nil for a path whose
        /// ancestors are gone); its `ways` are laid end to end from there.
        var start_distance_m: Double?
        var probability: Double
        var turn_angle_deg: Double?
        var ways: [WayStretch]
    }

    struct Ahead: Encodable {
        var distance_m: Double
        var detail: String
    }

    var time_s: Double
    var state: String
    var way_id: Int64?
    var link_id: String?
    var confidence: Double?
    var main_path: [WayStretch]
    var side_paths: [SidePath]
    var following_route: Bool
    var ahead: [String: Ahead]?
    /// Road objects on the main path not yet behind the vehicle.
    var objects: [ObjectAhead] = []
    /// Object events of this fix: `entered ID`, `exited ID`.
    var object_events: [String] = []
    /// With `--mpp-splits`: the junctions ahead where the main path is unsure, nearest first.
    var mpp_splits: [Split]?

    init(result: MatchResult, engine: HorizonEngine, map: MapFile, withQueries: Bool) {
        time_s = (result.time * 10).rounded() / 10
        state = result.state.name
        if let position = result.state.position {
            way_id = try? map.link(position.link.link).wayID
            link_id = position.link.description
            confidence = (position.confidence * 1000).rounded() / 1000
        }
        following_route = engine.isFollowingRoute
        main_path = []
        side_paths = []
        guard let main = engine.tree.mainPath, let vehicle = engine.vehicleOffset else { return }
        main_path = Self.stretches(main.links, from: vehicle)
        for path in engine.tree.sortedPaths where path.id != main.id {
            var distance: Double?
            if let offset = Self.rootBranchOffset(path, tree: engine.tree) {
                distance = ((offset - vehicle) * 10).rounded() / 10
            }
            side_paths.append(
                SidePath(
                    path_id: path.id.rawValue, level: path.level, parent_path_id: path.parent?.rawValue,
                    branch_distance_m: distance,
                    start_distance_m: Self.startDistance(path, tree: engine.tree, vehicle: vehicle).map {
                        ($0 * 10).rounded() / 10
                    },
                    probability: (path.probability * 1000).rounded() / 1000,
                    turn_angle_deg: path.turnAngle.map { ($0 * 10).rounded() / 10 },
                    ways: Self.stretches(path.links, from: path.startOffset)))
        }
        if withQueries, let queries = engine.queries { ahead = Self.describe(queries) }
    }

    /// Consecutive links of one way merged, from `offset` on.
    static func stretches(_ links: [PathLink], from offset: Double) -> [WayStretch] {
        var result: [WayStretch] = []
        for link in links where link.endOffset > offset {
            let length = link.endOffset - max(offset, link.startOffset)
            if let last = result.last, last.way_id == link.wayID {
                result[result.count - 1].length_m += length
            } else {
                result.append(WayStretch(way_id: link.wayID, length_m: length))
            }
        }
        return result.map { WayStretch(way_id: $0.way_id, length_m: ($0.length_m * 10).rounded() / 10) }
    }

    static func rootBranchOffset(_ path: HorizonPath, tree: PathTree) -> Double? {
        var current = path
        while let parentID = current.parent, let parent = tree.paths[parentID] {
            if parent.level == 0 { return current.branchOffset }
            current = parent
        }
        return nil
    }

    /// Metres along the tree from the vehicle (at offset `vehicle` on the main path) to the start of
    /// `path`: a side path's first link begins at its branch offset on its parent, whose offsets are
    /// placed the same way, up to the main path.
    static func startDistance(_ path: HorizonPath, tree: PathTree, vehicle: Double) -> Double? {
        // The tree distance of offset 0 in `path`'s own offsets, summed up the chain of parents.
        var origin = -vehicle
        var current = path
        while let parentID = current.parent {
            guard let parent = tree.paths[parentID], let branch = current.branchOffset else { return nil }
            origin += branch - current.startOffset
            current = parent
        }
        return origin + path.startOffset
    }

    static func describe(_ queries: HorizonQueries) -> [String: Ahead] {
        var result: [String: Ahead] = [:]
        if let change = queries.nextSpeedLimitChange() {
            result["speed_limit_change"] = Ahead(distance_m: round(change.distance), detail: describe(change.limit))
        }
        if let curve = queries.nextCurve(minimumCurvature: 1.0 / 500) {
            result["curve"] = Ahead(
                distance_m: round(curve.stretch.distance),
                detail: "radius \(Int(curve.radius.rounded())) m, \(curve.isRightHand ? "right" : "left")")
        }
        if let camera = queries.nextCamera() {
            result["camera"] = Ahead(distance_m: round(camera.distance), detail: "\(camera.feature.kind)")
        }
        if let signals = queries.nextTrafficSignals() {
            result["traffic_signals"] = Ahead(distance_m: round(signals.distance), detail: "traffic signals")
        }
        if let tunnel = queries.nextTunnel() {
            result["tunnel"] = Ahead(distance_m: round(tunnel.distance), detail: "tunnel")
        }
        if let intersection = queries.nextIntersection() {
            result["intersection"] = Ahead(
                distance_m: round(intersection.distance), detail: "\(intersection.branches.count) ways on")
        }
        return result
    }

    static func describe(_ limit: SpeedLimit) -> String {
        switch limit.value {
        case .unknown: return "unknown (\(limit.kind))"
        case .unlimited: return "unlimited (\(limit.kind))"
        case .kilometresPerHour(let kmh): return "\(Int(kmh.rounded())) km/h (\(limit.kind))"
        }
    }

    private static func round(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}

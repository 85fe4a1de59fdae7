import ADASISProvider
import ADASISv2

/// What the live view's panel shows of a reconstructed horizon: the META-DATA, the vehicle's
/// POSITION, the speed limit and what lies ahead on the main path, and every path of the tree
/// with its content.
public struct LiveTreeSummary: Codable, Sendable, Equatable {
    /// One path of the tree.
    public struct Path: Codable, Sendable, Equatable {
        /// Path index, 8…63.
        public var index: Int
        /// The parent path; `nil` for the main path and for paths not placed yet.
        public var parent: Int?
        /// Absolute offset on the parent where the path branches off; `nil` without a parent.
        public var branch_offset_m: Int?
        /// 0 for the main path, 1 for its sub-paths …; `nil` when no STUB places the path.
        public var level: Int?
        /// The announcing STUB's probability, percent.
        public var probability_percent: Double?
        /// SEGMENTs held.
        public var segments: Int
        /// STUBs held.
        public var stubs: Int
        /// Profile spots held by type (`long(longitude)`, `short(curvature)` …).
        public var profiles: [String: Int]
        /// Road objects held.
        public var objects: Int
        /// Whether the path is drawn on the map (it has shape points).
        public var placed: Bool
    }

    /// Something on the main path ahead of the vehicle.
    public struct Ahead: Codable, Sendable, Equatable {
        /// Metres from the vehicle.
        public var distance_m: Int
        /// What it is.
        public var detail: String
    }

    /// `FI, right-hand traffic, km/h, protocol 2.0.4`; `nil` before any META-DATA.
    public var meta_data: String?
    /// The POSITION's path index.
    public var position_path: Int?
    /// The POSITION's absolute offset on its path, metres (`nil` when invalid).
    public var position_offset_m: Int?
    /// The POSITION's speed, km/h (`nil` when invalid).
    public var speed_kmh: Double?
    /// The main path's index.
    public var main_path: Int?
    /// The SEGMENT speed limit at the vehicle, km/h (`nil` unknown).
    public var speed_limit_kmh: Double?
    /// The next speed-limit change on the main path.
    public var next_speed_limit: Ahead?
    /// The next camera on the main path.
    public var next_camera: Ahead?
    /// The road objects ahead on the main path, nearest first (at most 8).
    public var objects_ahead: [Ahead]
    /// Every path held, main path first, then by level and index.
    public var paths: [Path]
    /// How many times the tree was re-rooted (the vehicle moved to another path).
    public var re_roots: Int
    /// What the map shows and what it cannot: paths without shape points are not drawn.
    public var placement: String

    /// The summary of `horizon`; `unplaced` are the paths that could not be drawn.
    public init(_ horizon: ReconstructedHorizon, unplaced: [UInt8]) {
        let units = horizon.metaData?.speedUnits ?? .kilometresPerHour
        meta_data = horizon.metaData.map { meta in
            "country \(meta.countryCode), \(meta.drivingSide == .right ? "right" : "left")-hand traffic, "
                + "\(meta.speedUnits == .kilometresPerHour ? "km/h" : "mph"), protocol \(meta.protocolVersion)"
        }
        position_path = horizon.position.map { Int($0.message.pathIndex) }
        position_offset_m = horizon.position?.absoluteOffset
        speed_kmh = horizon.position?.message.speedMetresPerSecond.map { ($0 * 36).rounded() / 10 }
        main_path = horizon.mainPathIndex.map(Int.init)
        re_roots = horizon.reRootCount
        let levels = ReconstructedFeatures.levels(horizon)
        paths = horizon.paths.values.map { path in
            var profiles: [String: Int] = [:]
            for (type, spots) in path.profiles { profiles[Self.name(of: type)] = spots.count }
            return Path(
                index: Int(path.index), parent: path.parent.map(Int.init), branch_offset_m: path.branchOffset,
                level: levels[path.index], probability_percent: path.announcingStub?.probabilityPercent,
                segments: path.segments.count, stubs: path.stubs.values.reduce(0) { $0 + $1.count },
                profiles: profiles, objects: path.objects.count, placed: !unplaced.contains(path.index))
        }
        .sorted { ($0.level ?? 99, $0.index) < ($1.level ?? 99, $1.index) }
        let held = horizon.paths.count
        placement =
            held == 0
            ? "no path received yet"
            : unplaced.isEmpty
                ? "all \(held) paths drawn from their shape points"
                : "\(held - unplaced.count) of \(held) paths drawn; paths \(unplaced.prefix(8).map(String.init).joined(separator: ", "))\(unplaced.count > 8 ? " …" : "") have no shape points (PROFILE LONG longitude/latitude: the sender's preset all) or no STUB placing them"
        speed_limit_kmh = nil
        objects_ahead = []
        guard let main = horizon.mainPath, let vehicle = horizon.vehicleOffset else { return }
        let here = main.segment(at: vehicle)?.speedLimitKilometresPerHour(units: units)
        speed_limit_kmh = here
        for (offset, segment) in main.segments.sorted(by: { $0.key < $1.key }) where offset > vehicle {
            let limit = segment.speedLimitKilometresPerHour(units: units)
            if limit != here {
                next_speed_limit = Ahead(distance_m: offset - vehicle, detail: Self.limitText(limit))
                break
            }
        }
        if let camera = (main.profiles[.short(.safetyCamera)] ?? [:]).filter({ $0.key >= vehicle }).min(by: {
            $0.key < $1.key
        }) {
            next_camera = Ahead(distance_m: camera.key - vehicle, detail: "camera type \(camera.value.value)")
        }
        for object in main.objects {
            guard let start = object.start ?? object.end, start >= vehicle || (object.end ?? Int.max) >= vehicle
            else { continue }
            let name = RoadObjectWireCode.type(object.code).map(\.rawValue) ?? "code \(object.code)"
            let value = object.value == 1023 ? "" : ", \(object.value) km/h"
            objects_ahead.append(Ahead(distance_m: max(0, start - vehicle), detail: name + value))
        }
        objects_ahead = Array(objects_ahead.sorted { $0.distance_m < $1.distance_m }.prefix(8))
    }

    /// `longitude`, `curvature`, `safety camera` …: a profile type as the panel names it.
    static func name(of type: ProfileType) -> String {
        switch type {
        case .long(let long): return "\(long)"
        case .short(.safetyCamera): return "safety camera"
        case .short(.trafficSignals): return "traffic signals"
        case .short(.roadObject): return "road object"
        case .short(.roadObjectZoneStart): return "zone start"
        case .short(.roadObjectZoneEnd): return "zone end"
        case .short(let short): return "\(short)"
        }
    }

    static func limitText(_ limit: Double?) -> String {
        guard let limit else { return "limit unknown" }
        return limit.isFinite ? "\(Int(limit)) km/h" : "unlimited"
    }
}

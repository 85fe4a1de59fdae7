import Horizon
import RoadMap

/// What a picture of the horizon shows at one moment, in geographic coordinates: the roads
/// around, the main path split at the vehicle into its trailing part and the part ahead, the side
/// paths by level, the fix and the matched position, and the cameras on the paths.
public struct HorizonScene: Sendable {
    /// A road of the map drawn under the horizon.
    public struct Road: Sendable {
        /// The link.
        public var id: LinkID
        /// Functional road class, 1 (motorway) … 6.
        public var functionalClass: UInt8
        /// The shape.
        public var geometry: [GeoPoint]
    }

    /// A side path's drawn part.
    public struct SidePath: Sendable {
        /// The path.
        public var id: PathID
        /// 1 for paths branching off the main path, and so on.
        public var level: Int
        /// Probability at its branch junction.
        public var probability: Double
        /// The shape in driving order.
        public var geometry: [GeoPoint]
    }

    /// A safety camera on a path.
    public struct Camera: Sendable {
        /// Where it stands.
        public var point: GeoPoint
        /// What it enforces.
        public var type: SafetyCameraType
    }

    /// Seconds from the start of the drive.
    public var time: Double
    /// The matcher's state (`matched`, `lost`, …).
    public var state: String
    /// The GNSS fix.
    public var fix: GeoPoint
    /// The matched position, `nil` when not matched.
    public var matched: GeoPoint?
    /// The map's roads within the picture.
    public var roads: [Road]
    /// The main path behind the vehicle (still held by the provider), in driving order.
    public var trailing: [GeoPoint]
    /// The main path ahead of the vehicle, in driving order.
    public var mainPath: [GeoPoint]
    /// The main path's links ahead of the vehicle, in driving order.
    public var mainPathLinks: [DirectedLink]
    /// The side paths.
    public var sidePaths: [SidePath]
    /// Cameras on the paths.
    public var cameras: [Camera]

    /// The scene of `engine`'s tree after the match `result` of `fix`, with the roads of
    /// `network` within `margin` metres of the horizon.
    public init(
        result: MatchResult, fix: GeoPoint, engine: HorizonEngine, network: some RoadNetwork, margin: Double = 150
    ) throws {
        time = result.time
        state = result.state.name
        self.fix = fix
        matched = result.state.position?.point
        trailing = []
        mainPath = []
        mainPathLinks = []
        sidePaths = []
        cameras = []
        var shapes: [PathID: [GeoPoint]] = [:]
        for path in engine.tree.sortedPaths {
            var shape: [GeoPoint] = []
            for pathLink in path.links {
                let link = try network.link(pathLink.link.link)
                let points = pathLink.link.direction == .forward ? link.geometry : link.geometry.reversed()
                shape.append(contentsOf: shape.last == points.first ? Array(points.dropFirst()) : points)
                for feature in pathLink.features {
                    guard case .safetyCamera(let type, _) = feature.kind,
                        let point = shape.point(atOffset: feature.offset - path.startOffset)?.point
                    else { continue }
                    cameras.append(Camera(point: point, type: type))
                }
            }
            shapes[path.id] = shape
            if path.id == engine.tree.mainPathID {
                let vehicle = (engine.vehicleOffset ?? path.startOffset) - path.startOffset
                (trailing, mainPath) = Self.split(shape, at: vehicle)
                mainPathLinks = path.links.filter { $0.endOffset > path.startOffset + vehicle }.map(\.link)
            } else {
                sidePaths.append(
                    SidePath(id: path.id, level: path.level, probability: path.probability, geometry: shape))
            }
        }
        let everything = shapes.values.joined() + [fix]
        let centre = GeoPoint(
            latitude: everything.map(\.latitude).reduce(0, +) / Double(everything.count),
            longitude: everything.map(\.longitude).reduce(0, +) / Double(everything.count))
        let radius = (everything.map { centre.distance(to: $0) }.max() ?? 0) + margin
        roads = try network.links(near: centre, radius: radius).map {
            Road(id: $0.id, functionalClass: $0.highway.functionalClass, geometry: $0.geometry)
        }
    }

    /// `shape` cut at `offset` metres along it: the part before and the part after.
    static func split(_ shape: [GeoPoint], at offset: Double) -> (before: [GeoPoint], after: [GeoPoint]) {
        guard shape.count >= 2 else { return ([], shape) }
        var along = 0.0
        for index in 1..<shape.count {
            let step = shape[index - 1].distance(to: shape[index])
            if along + step >= offset {
                let fraction = step > 0 ? max(0, offset - along) / step : 0
                let cut = GeoPoint(
                    latitude: shape[index - 1].latitude + (shape[index].latitude - shape[index - 1].latitude)
                        * fraction,
                    longitude: shape[index - 1].longitude + (shape[index].longitude - shape[index - 1].longitude)
                        * fraction)
                return (Array(shape[..<index]) + [cut], [cut] + Array(shape[index...]))
            }
            along += step
        }
        return (shape, [])
    }
}

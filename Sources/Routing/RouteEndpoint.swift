import RoadMap

/// A point where a route starts, passes or ends, placed on the road nearest to it.
public struct RouteEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The coordinate the caller gave.
    public var requested: GeoPoint
    /// The link the point was placed on.
    public var link: LinkID
    /// Metres from the link's first geometry point to the placed point.
    public var offset: Double
    /// The placed point on the link.
    public var placed: GeoPoint
    /// Metres between the requested and the placed point.
    public var distance: Double
    /// The link's length in metres.
    public var linkLength: Double
    /// The only direction a route may leave (or reach) this point in, when it is fixed: a vehicle
    /// driving a link does not turn on the spot. `nil`: either direction the link allows.
    public var direction: LinkDirection?

    /// Creates an endpoint.
    public init(
        requested: GeoPoint, link: LinkID, offset: Double, placed: GeoPoint, distance: Double, linkLength: Double,
        direction: LinkDirection? = nil
    ) {
        self.requested = requested
        self.link = link
        self.offset = offset
        self.placed = placed
        self.distance = distance
        self.linkLength = linkLength
        self.direction = direction
    }

    /// The point where a vehicle is: on `link`, `offset` metres from its entry in the driving
    /// direction; routes from here leave in that direction.
    public static func vehicle(on link: DirectedLink, offset: Double, point: GeoPoint, linkLength: Double)
        -> RouteEndpoint
    {
        let clamped = min(max(offset, 0), linkLength)
        return RouteEndpoint(
            requested: point, link: link.link, offset: link.direction == .forward ? clamped : linkLength - clamped,
            placed: point, distance: 0, linkLength: linkLength, direction: link.direction)
    }

    /// The share of `direction`'s drive along the link that lies before this point (0 at the
    /// link's start in that direction, 1 at its end).
    func fraction(_ direction: LinkDirection) -> Double {
        guard linkLength > 0 else { return 0 }
        let forward = min(1, max(0, offset / linkLength))
        return direction == .forward ? forward : 1 - forward
    }

    public var description: String {
        "\(requested.latitude),\(requested.longitude) → \(link) at \(Int(offset.rounded())) m (\(Int(distance.rounded())) m away)"
    }

    /// Places `point` on the nearest link of `network` within `radius` metres that a car may drive
    /// in at least one direction.
    public static func place(_ point: GeoPoint, in network: any RoadNetwork, radius: Double = 200) throws
        -> RouteEndpoint
    {
        try candidates(point, in: network, radius: radius, limit: 1)[0]
    }

    /// Places `point` on each of the `limit` nearest links within `radius` metres, nearest first
    /// (ties by link id), leaving out links more than `slack` metres farther than the nearest: the
    /// planner tries the next when a route cannot leave or reach the nearest (a one-way stub, a
    /// piece cut off by the extract's edge). Never empty: no link near is an error.
    public static func candidates(
        _ point: GeoPoint, in network: any RoadNetwork, radius: Double = 200, limit: Int = 3, slack: Double = 50
    ) throws -> [RouteEndpoint] {
        guard point.latitude.isFinite, point.longitude.isFinite, abs(point.latitude) <= 90, abs(point.longitude) <= 180
        else {
            throw RoutingError.invalidCoordinate(point)
        }
        var all: [RouteEndpoint] = []
        for link in try network.links(near: point, radius: radius) {
            guard let projection = link.geometry.project(point) else { continue }
            all.append(
                RouteEndpoint(
                    requested: point, link: link.id, offset: projection.offset, placed: projection.point,
                    distance: projection.distance, linkLength: link.length))
        }
        all.sort { ($0.distance, $0.link) < ($1.distance, $1.link) }
        guard let nearest = all.first else { throw RoutingError.noRoadNear(point, radius: radius) }
        return Array(all.prefix { $0.distance <= nearest.distance + slack }.prefix(max(limit, 1)))
    }
}

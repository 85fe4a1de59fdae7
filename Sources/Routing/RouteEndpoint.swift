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
        guard point.latitude.isFinite, point.longitude.isFinite, abs(point.latitude) <= 90, abs(point.longitude) <= 180
        else {
            throw RoutingError.invalidCoordinate(point)
        }
        var best: RouteEndpoint?
        for link in try network.links(near: point, radius: radius) {
            guard let projection = link.geometry.project(point) else { continue }
            let better = best.map {
                projection.distance < $0.distance || (projection.distance == $0.distance && link.id < $0.link)
            }
            if better ?? true {
                best = RouteEndpoint(
                    requested: point, link: link.id, offset: projection.offset, placed: projection.point,
                    distance: projection.distance, linkLength: link.length)
            }
        }
        guard let best else { throw RoutingError.noRoadNear(point, radius: radius) }
        return best
    }
}

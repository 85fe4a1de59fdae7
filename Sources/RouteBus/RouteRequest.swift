import RoadMap

/// A call of the head unit's route interface, decoded from its D-Bus message: what the daemon's
/// core is asked to do with the route.
public enum RouteRequest: Hashable, Sendable {
    /// Plan from the vehicle through `via` to `destination` and make it the active route.
    case setDestination(GeoPoint, via: [GeoPoint])
    /// Make these directed links (planned elsewhere) the active route.
    case setRouteLinks([DirectedLink])
    /// Make the roads through these points, in order, the active route (a route's shape from a
    /// navigation app: each point is placed on its nearest road and the points are connected).
    case setRouteCoordinates([GeoPoint])
    /// Drop the active route; the horizon falls back to prediction.
    case clearRoute
    /// Describe the active route.
    case getRoute
    /// Make the pending better-route proposal the active route.
    case acceptProposal
    /// Drop the pending better-route proposal; the active route stays.
    case rejectProposal
}

/// The answer to a ``RouteRequest`` that succeeded.
public enum RouteReply: Hashable, Sendable {
    /// The request made route `id` the active one.
    case activeRoute(id: Int)
    /// The request is done and has nothing to report.
    case done
    /// The active route (``RouteRequest/getRoute``).
    case route(RouteDescription)
}

/// The active route as `GetRoute` reports it: what is left of it from the vehicle.
public struct RouteDescription: Hashable, Sendable {
    /// One part of the route between two stops (via points or the destination).
    public struct Leg: Hashable, Sendable {
        /// Metres left to drive on this leg.
        public var length: Double
        /// Seconds left on this leg, under the planner's cost model.
        public var duration: Double

        /// Creates a leg.
        public init(length: Double, duration: Double) {
            self.length = length
            self.duration = duration
        }
    }

    /// The route's identifier in the route signals.
    public var id: Int
    /// The directed links still to drive, from the one the vehicle is on.
    public var links: [DirectedLink]
    /// Metres still to drive.
    public var length: Double
    /// Seconds still to drive (the estimated time of arrival, relative to now).
    public var duration: Double
    /// The legs still to drive, in order.
    public var legs: [Leg]

    /// Creates a description.
    public init(id: Int, links: [DirectedLink], length: Double, duration: Double, legs: [Leg]) {
        self.id = id
        self.links = links
        self.length = length
        self.duration = duration
        self.legs = legs
    }
}

/// Why a ``RouteRequest`` was refused. Nothing changed; the D-Bus caller gets the error named
/// `org.adasis.Horizon1.Error.<kind>` with ``message``.
public struct RouteRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is; the raw value is the last part of the D-Bus error name.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// An argument has a value the method cannot take (an empty list, too many points).
        case invalidArguments = "InvalidArguments"
        /// A latitude or longitude is out of range or not a number.
        case invalidCoordinate = "InvalidCoordinate"
        /// A point is farther than the placement radius from every drivable road of the map.
        case noRoadNear = "NoRoadNear"
        /// No legal way between two points (or the search gave up).
        case unreachable = "Unreachable"
        /// A link id is not in the daemon's map.
        case unknownLink = "UnknownLink"
        /// A link is driven against its one-way direction.
        case againstOneway = "AgainstOneway"
        /// Two consecutive links do not meet.
        case disconnected = "Disconnected"
        /// The vehicle's position is not known yet (no GNSS fix), so no route can start there.
        case noPosition = "NoPosition"
        /// There is no active route.
        case noRoute = "NoRoute"
        /// There is no better-route proposal to accept or reject.
        case noProposal = "NoProposal"
        /// The map could not be read.
        case mapUnreadable = "MapUnreadable"
    }

    /// The D-Bus error names' common prefix.
    public static let namePrefix = "org.adasis.Horizon1.Error."

    /// What kind of problem it is.
    public var kind: Kind
    /// What is wrong and what to do, for the caller.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The D-Bus error name, e.g. `org.adasis.Horizon1.Error.NoRoadNear`.
    public var name: String { Self.namePrefix + kind.rawValue }

    public var description: String { "\(name): \(message)" }
}

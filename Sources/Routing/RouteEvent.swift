import RoadMap

/// Why a route was added, changed or removed (the reasons TomTom's continuous replanning names).
public enum RouteChangeReason: String, Hashable, Sendable, CaseIterable {
    /// The client asked for it: a destination set, a route imported or cleared.
    case manual
    /// The periodic refresh recomputed the remaining time of the route being driven.
    case refresh
    /// A faster alternative was found.
    case betterRoute = "better_route"
    /// The active route is blocked; the replacement avoids the blockage.
    case avoidBlockage = "avoid_blockage"
    /// The vehicle left the route; the replacement starts where it is.
    case deviation
    /// The destination was reached.
    case arrival
}

/// Something that happened to the routes of a ``RouteSession``, in the order it happened.
public enum RouteEvent: Hashable, Sendable {
    /// A route joined the session.
    case routeAdded(id: Int, reason: RouteChangeReason)
    /// The route the horizon follows is now `id`.
    case activeRouteChanged(id: Int, reason: RouteChangeReason)
    /// A better route `id` was found and waits for the client (manual acceptance): it would save
    /// `timeSaved` seconds over the rest of the active route (negative when it only avoids a
    /// blockage and is slower than the blocked route would have been).
    case routeProposed(id: Int, reason: RouteChangeReason, timeSaved: Double)
    /// A route left the session.
    case routeRemoved(id: Int, reason: RouteChangeReason)
    /// The active route's remaining time was recomputed: `remaining` seconds over `length` metres.
    case routeUpdated(id: Int, reason: RouteChangeReason, remaining: Double, length: Double)
    /// The vehicle is off the active route, on `link`.
    case deviated(id: Int, link: DirectedLink)
    /// Planning failed; the next try comes at `retryAt` (session time, seconds).
    case planningFailed(RoutingError, retryAt: Double)
    /// The vehicle reached the destination of route `id`.
    case arrived(id: Int)
}

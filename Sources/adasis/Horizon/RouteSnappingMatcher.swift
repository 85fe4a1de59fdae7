import GNSS
import Horizon
import RoadMap
import Routing

/// A map matcher that keeps a vehicle on its active route through matching slips: each match of
/// the wrapped matcher that lies off the route but near it is moved onto the route
/// (``RouteSession/snapped(_:)``), so the horizon engine and the route session see the route
/// the vehicle drives. Without a route it passes every match through unchanged.
final class RouteSnappingMatcher: MapMatcher {
    /// The matcher whose matches are snapped.
    let matcher: any MapMatcher
    /// The route session as of the last fix (``DriveSession/follow(_:engine:)`` keeps it current).
    var routes: RouteSession?

    init(_ matcher: any MapMatcher, routes: RouteSession?) {
        self.matcher = matcher
        self.routes = routes
    }

    func match(_ fix: GNSSFix) throws -> MatchResult {
        var result = try matcher.match(fix)
        guard let routes, let position = result.state.position,
            let snapped = routes.snapped(
                RouteSession.VehiclePosition(link: position.link, offset: position.offset, point: position.point))
        else { return result }
        result.state = .onRoad(
            MatchedPosition(
                link: snapped.link, offset: snapped.offset, point: snapped.point, confidence: position.confidence))
        return result
    }

    func reset() { matcher.reset() }
}

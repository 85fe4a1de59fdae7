import ADASISProvider
import Foundation
import GNSS
import Horizon
import RoadMap
import RoadMapStore
import Routing

/// A recorded drive opened on its map, ready to run: what `DriveOptions.open(horizon:)` read and
/// chose, with the product or the baseline applied to both the matcher and the horizon settings.
struct DriveSession {
    /// The map.
    let map: MapFile
    /// The recorded drive.
    var trace: TraceFile
    /// The map matcher (the nearest-road baseline with `--baseline`), wrapped in a
    /// ``RouteSnappingMatcher`` with a route.
    let matcher: any MapMatcher
    /// The horizon engine's settings (the straightest-continuation branch model with `--baseline`).
    let horizon: HorizonConfiguration
    /// The active route and its replanning (`--route` or `--destination`); `nil` without a route.
    var routes: RouteSession?
    /// What the horizon reads: the map with the custom objects of `MAP.objects` laid over it
    /// (`adasis objects`), or the map alone when there are none.
    let network: any RoadNetwork
    /// The `--traffic` feed over the drive's time (also ``network``); `nil` without a feed.
    var traffic: TrafficOverTime?
    /// Whether the last ``follow(_:engine:)`` changed the road objects of the engine's tree in
    /// place (an incident started or ended, the feed expired). The replay then tells its provider,
    /// which sends only the objects that changed.
    var trafficObjectsChanged = false
    /// The `--traffic` feed's link speeds at its start time, for the traffic-speed profile; `nil`
    /// without a feed.
    var trafficSpeeds: TrafficSpeedTable?
    /// The trace time (seconds) at which the `--traffic` feed expires; `nil` without a feed.
    var trafficValidUntil: Double? {
        traffic.map { $0.layer.validUntil.timeIntervalSince($0.dateOfTraceZero) }
    }

    /// The active route's links, or `nil`.
    var route: [DirectedLink]? { routes?.links }

    /// A horizon engine on the map with the session's settings and route.
    func makeEngine() throws -> HorizonEngine {
        let engine = try HorizonEngine(network: network, configuration: horizon)
        try engine.setRoute(route)
        return engine
    }

    /// Hands the match of one fix to the route session, and a changed route to `engine`; returns
    /// the route events (also printed on standard error).
    @discardableResult
    mutating func follow(_ match: MatchResult, engine: HorizonEngine) throws -> [RouteEvent] {
        let trafficChanged = try followTraffic(match, engine: engine)
        guard var current = routes else { return [] }
        if trafficChanged, let traffic {
            current.setTraffic(traffic.routeTraffic(atTraceTime: match.time, network: map))
        }
        let position = match.state.position.map {
            RouteSession.VehiclePosition(link: $0.link, offset: $0.offset, point: $0.point)
        }
        let before = current.active?.id
        let events = current.update(position, time: match.time)
        routes = current
        (matcher as? RouteSnappingMatcher)?.routes = current
        RouteReport.print(events, session: current, time: match.time)
        if current.active?.id != before { try engine.setRoute(current.links) }
        return events
    }
}

extension DriveSession {
    /// Moves the traffic to the time of `match`: when its objects changed, says so on standard
    /// error and has `engine` read its tree's objects again in place (``trafficObjectsChanged``).
    /// Returns whether they changed.
    mutating func followTraffic(_ match: MatchResult, engine: HorizonEngine) throws -> Bool {
        trafficObjectsChanged = false
        guard let traffic, let state = traffic.advance(to: match.time) else { return false }
        let at = String(format: "%.1f s", match.time)
        if state.valid {
            let list = state.incidents.sorted().joined(separator: ", ")
            printToStandardError(
                "traffic at \(at): \(state.incidents.count) incidents in force\(list.isEmpty ? "" : " (\(list))")")
        } else {
            printToStandardError(
                "traffic feed expired at \(at): routes are costed and the horizon drawn without traffic from now on")
        }
        trafficObjectsChanged = try engine.refreshFeatures()
        return true
    }
}

/// One line on standard error per route change, so a replay shows when and why it replanned.
enum RouteReport {
    static func print(_ events: [RouteEvent], session: RouteSession, time: Double) {
        let at = String(format: "%.1f s", time)
        for event in events {
            switch event {
            case .activeRouteChanged(let id, let reason):
                printToStandardError(
                    "route \(id) active at \(at) (\(reason.rawValue)): \(session.links?.count ?? 0) links")
            case .deviated(let id, let link):
                printToStandardError("route \(id): left at \(at) onto \(link)")
            case .planningFailed(let error, let retryAt):
                printToStandardError(
                    "route planning failed at \(at), next try at \(String(format: "%.1f s", retryAt)): \(error)")
            case .arrived(let id):
                printToStandardError("route \(id): arrived at \(at)")
            case .routeProposed(let id, let reason, let timeSaved):
                printToStandardError(
                    "route \(id) proposed at \(at) (\(reason.rawValue)): saves \(String(format: "%.0f s", timeSaved))")
            case .routeAdded, .routeRemoved, .routeUpdated:
                continue
            }
        }
    }
}

import Foundation
import ArgumentParser
import GNSS
import Horizon
import RoadMap
import Routing

/// Options shared by the commands that run a recorded drive through the map.
struct DriveOptions: ParsableArguments {
    @Option(help: "The map file (from `adasis map import`).")
    var map: String

    @Argument(help: "The recorded drive: .csv (time_s,lat,lon,speed_mps,heading_deg), .nmea or .gpx.")
    var trace: String

    @Flag(help: "Use the baseline instead of the product: nearest road, straightest continuation.")
    var baseline = false

    @Option(help: "An active route: a file of links as adasis match prints them (L123+ per line), or an adasis match CSV of a previous drive. The main path follows it while the vehicle stays on it.")
    var route: String?

    @Option(help: "Plan the fastest route from the drive's first fix to this point (LAT,LON) and follow it, as adasis route plans it; replanned when the vehicle leaves it. Not with --route.")
    var destination: Coordinate?

    @Option(help: "When the vehicle leaves the route: automatic (plan a new one from where it is; the default with --destination) or none (keep the route and fall back to prediction; the default with --route).")
    var deviationReplanning: RouteSessionConfiguration.DeviationReplanning?

    func validate() throws {
        if route != nil && destination != nil {
            throw ValidationError("give either --route (a planned route) or --destination (plan one), not both")
        }
    }

    /// The route session for `--route` or `--destination`, with its route active, or `nil`.
    /// A `--route` file is connected on `map` first (gaps between listed links closed by the
    /// shortest legal connection; links that cannot be reached are left out and reported); a
    /// destination is planned from the trace's first fix.
    func routeSession(on map: MapFile, trace: TraceFile) throws -> RouteSession? {
        guard route != nil || destination != nil else { return nil }
        var configuration = RouteSessionConfiguration()
        configuration.deviationReplanning = deviationReplanning ?? (destination != nil ? .automatic : .none)
        var session = RouteSession(planner: RoutePlanner(network: map), configuration: configuration)
        if let destination {
            guard let first = trace.fixes.first else {
                throw RouteError(message: "--destination: the trace has no fix to start the route from")
            }
            let events = try session.setDestination(destination.point, from: nil,
                                                    orPoint: GeoPoint(latitude: first.latitude, longitude: first.longitude),
                                                    time: first.time)
            report(events, session: session, time: first.time)
            return session
        }
        guard let route else { return nil }
        let text: String
        do { text = try String(contentsOfFile: route, encoding: .utf8) } catch {
            throw RouteError(message: "cannot read route \(route): \(error.localizedDescription)")
        }
        let (links, skipped) = try RoutePlanning.connect(try RoutePlanning.parse(text), in: map, skippingUnreachable: true)
        if skipped > 0 { printToStandardError("route \(route): \(skipped) links could not be reached from the route before them and were left out") }
        _ = session.importRoute(links, time: trace.fixes.first?.time ?? 0)
        return session
    }

    /// Hands the match of one fix to the route session and a changed route to the engine.
    func follow(_ session: inout RouteSession?, match: MatchResult, engine: HorizonEngine) throws {
        guard var current = session else { return }
        let position = match.state.position.map {
            RouteSession.VehiclePosition(link: $0.link, offset: $0.offset, point: $0.point)
        }
        let before = current.active?.id
        let events = current.update(position, time: match.time)
        session = current
        report(events, session: current, time: match.time)
        if current.active?.id != before { try engine.setRoute(current.links) }
    }

    /// One line on standard error per route change, so a replay shows when and why it replanned.
    private func report(_ events: [RouteEvent], session: RouteSession, time: Double) {
        let at = String(format: "%.1f s", time)
        for event in events {
            switch event {
            case .activeRouteChanged(let id, let reason):
                printToStandardError("route \(id) active at \(at) (\(reason.rawValue)): \(session.links?.count ?? 0) links")
            case .deviated(let id, let link):
                printToStandardError("route \(id): left at \(at) onto \(link)")
            case .planningFailed(let error, let retryAt):
                printToStandardError("route planning failed at \(at), next try at \(String(format: "%.1f s", retryAt)): \(error)")
            case .arrived(let id):
                printToStandardError("route \(id): arrived at \(at)")
            case .routeAdded, .routeRemoved, .routeUpdated:
                continue
            }
        }
    }

    /// The map, the trace's fixes, a matcher and a horizon engine.
    func open(horizon: HorizonConfiguration = HorizonConfiguration()) throws -> (MapFile, TraceFile, any MapMatcher, HorizonEngine) {
        let map = try MapFile(path: self.map)
        let trace = try TraceFile(path: trace)
        let matcher: any MapMatcher = baseline ? NearestRoadMatcher(network: map) : OnlineMapMatcher(network: map)
        var configuration = horizon
        if baseline {
            configuration.branchModel = BranchProbabilityModel(classStepFactor: 1, rampEntryFactor: 1,
                                                               nameContinuityFactor: 1, laneStepFactor: 0)
        }
        let engine = try HorizonEngine(network: map, configuration: configuration)
        return (map, trace, matcher, engine)
    }
}

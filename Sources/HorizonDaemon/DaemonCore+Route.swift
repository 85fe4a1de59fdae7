import Horizon
import RoadMap
import RouteBus
import Routing

extension DaemonCore {
    /// The most points ``RouteRequest/setRouteCoordinates(_:)`` takes.
    public static let maximumRoutePoints = 2000

    /// Answers one call of the route interface at monotonic time `now`: the reply or a typed
    /// error (which leaves the route as it was), and the effects (route signals, log lines).
    public mutating func handle(_ request: RouteRequest, at now: Double) -> (
        result: Result<RouteReply, RouteRequestError>, effects: [DaemonEffect]
    ) {
        let time = timeline.time(atMonotonic: now)
        do throws(RouteRequestError) {
            switch request {
            case .setDestination(let destination, let via):
                let origin = try vehicleOrigin()
                let saved = routes
                let events = try planning { try routes.setDestination(destination, via: via, from: origin, time: time) }
                return try activate(events, restoring: saved, time: time)
            case .setRouteLinks(let links):
                try checkLinks(links)
                let saved = routes
                return try activate(routes.importRoute(links, time: time), restoring: saved, time: time)
            case .setRouteCoordinates(let points):
                guard (2...Self.maximumRoutePoints).contains(points.count) else {
                    throw RouteRequestError(
                        .invalidArguments,
                        "a route needs 2 to \(Self.maximumRoutePoints) points (its start and end, and shape points between); got \(points.count)"
                    )
                }
                let planner = routes.planner
                let planned = try planning {
                    try planner.plan(
                        through: points.map {
                            try RouteEndpoint.place($0, in: planner.network, radius: planner.placementRadius)
                        })
                }
                let saved = routes
                return try activate(routes.importRoute(planned.links, time: time), restoring: saved, time: time)
            case .clearRoute:
                let events = routes.clear()
                return (.success(.done), routeChanged(events, time: time))
            case .getRoute:
                return (.success(.route(try describeRoute())), [])
            case .acceptProposal:
                let events = try planning { try routes.acceptProposal(time: time) }
                return (.success(.activeRoute(id: routes.active?.id ?? 0)), routeChanged(events, time: time))
            case .rejectProposal:
                let events = try planning { try routes.rejectProposal(time: time) }
                return (.success(.done), routeChanged(events, time: time))
            }
        } catch {
            return (
                .failure(error),
                [.log(.info, "route request refused: \(error.name): \(error.message)")]
            )
        }
    }

    /// Hands the match of one processed fix to the route session; a changed route goes to the
    /// horizon engine.
    mutating func followRoute(_ match: MatchResult) -> [DaemonEffect] {
        guard routes.active != nil else { return [] }
        let position = match.state.position.map {
            RouteSession.VehiclePosition(link: $0.link, offset: $0.offset, point: $0.point)
        }
        return routeChanged(routes.update(position, time: match.time), time: match.time)
    }

    /// Effects for `events`, after giving the engine the session's route when the active route
    /// changed.
    mutating func routeChanged(_ events: [RouteEvent], time: Double) -> [DaemonEffect] {
        guard !events.isEmpty else { return [] }
        var effects: [DaemonEffect] = []
        if events.contains(where: Self.changesActiveRoute) {
            do {
                try pipeline.engine.setRoute(routes.links)
            } catch {
                effects.append(.log(.error, "the horizon cannot follow route \(routes.active?.id ?? 0): \(error)"))
            }
        }
        return effects + routeEffects(events, time: time)
    }

    /// The signals and log lines for `events`.
    private func routeEffects(_ events: [RouteEvent], time: Double) -> [DaemonEffect] {
        var effects: [DaemonEffect] = []
        for event in events {
            effects.append(.route(event, time: time))
            if let line = Self.logLine(event, links: routes.links?.count ?? 0) { effects.append(.log(.info, line)) }
        }
        return effects
    }

    /// After a reload onto `network`: a planned route is planned again to its remaining stops on
    /// the new map from where the vehicle is; an imported route is kept when the new map has all
    /// its links (else dropped, and said so).
    mutating func moveRoutes(to network: any RoadNetwork, time: Double) -> [DaemonEffect] {
        routes.planner = RoutePlanner(network: network)
        routes.configuration = configuration.routing
        guard let active = routes.active else { return [] }
        let stops = active.stops.map(\.requested)
        do throws(RouteRequestError) {
            if let destination = stops.last {
                let origin = try vehicleOrigin()
                let events = try planning {
                    try routes.setDestination(destination, via: Array(stops.dropLast()), from: origin, time: time)
                }
                return routeChanged(events, time: time) + [
                    .log(
                        .notice, "map reloaded: route to \(destination.latitude),\(destination.longitude) planned again"
                    )
                ]
            }
            let links = active.imported ?? active.links
            try checkLinks(links)
            return routeChanged(routes.importRoute(links, time: time), time: time)
        } catch {
            return routeChanged(routes.clear(), time: time) + [
                .log(
                    .warning, "map reloaded: route \(active.id) dropped, it does not fit the new map: \(error.message)")
            ]
        }
    }

    // MARK: - Internals

    private static func changesActiveRoute(_ event: RouteEvent) -> Bool {
        switch event {
        case .activeRouteChanged, .routeRemoved: return true
        default: return false
        }
    }

    private static func logLine(_ event: RouteEvent, links: Int) -> String? {
        switch event {
        case .activeRouteChanged(let id, let reason): return "route \(id) active (\(reason.rawValue)): \(links) links"
        case .deviated(let id, let link): return "route \(id): vehicle left it onto \(link)"
        case .planningFailed(let error, _): return "route planning failed: \(error)"
        case .arrived(let id): return "route \(id): arrived"
        case .routeProposed(let id, let reason, let saved):
            return "route \(id) proposed (\(reason.rawValue)): saves \(Int(saved.rounded())) s"
        case .routeRemoved(let id, let reason) where reason == .manual: return "route \(id) removed"
        default: return nil
        }
    }

    /// Makes the session's new route the engine's; on failure the session is put back.
    private mutating func activate(_ events: [RouteEvent], restoring saved: RouteSession, time: Double)
        throws(RouteRequestError) -> (result: Result<RouteReply, RouteRequestError>, effects: [DaemonEffect])
    {
        do {
            try pipeline.engine.setRoute(routes.links)
        } catch {
            routes = saved
            throw RouteRequestError(.disconnected, "the horizon cannot follow the route: \(error)")
        }
        return (.success(.activeRoute(id: routes.active?.id ?? 0)), routeEffects(events, time: time))
    }

    /// Where a route from the vehicle starts: its matched position, else its last fix.
    private func vehicleOrigin() throws(RouteRequestError) -> RouteSession.Origin {
        if let position = pipeline.lastMatch?.state.position {
            return .vehicle(.init(link: position.link, offset: position.offset, point: position.point))
        }
        guard let lastFix else {
            throw RouteRequestError(
                .noPosition, "the vehicle's position is not known yet (no GNSS fix): set the destination once it is")
        }
        return .point(GeoPoint(latitude: lastFix.latitude, longitude: lastFix.longitude))
    }

    /// Runs a planning step, its errors as request errors.
    private func planning<T>(_ body: () throws -> T) throws(RouteRequestError) -> T {
        do {
            return try body()
        } catch let error as RouteRequestError {
            throw error
        } catch let error as RoutingError {
            throw RouteRequestError(error)
        } catch {
            throw RouteRequestError(.mapUnreadable, "the map could not be read while planning: \(error)")
        }
    }

    /// Checks that `links` is a route the map can drive: known links, in allowed directions,
    /// each meeting the next.
    private func checkLinks(_ links: [DirectedLink]) throws(RouteRequestError) {
        guard !links.isEmpty else { throw RouteRequestError(.invalidArguments, "the route has no links") }
        var roads: [RoadLink] = []
        for (index, step) in links.enumerated() {
            do {
                roads.append(try map.link(step.link))
            } catch {
                throw RouteRequestError(
                    .unknownLink,
                    "link \(step.link.rawValue) (index \(index)) is not in the map \(configuration.mapPath) (\(error)): plan the route on the map the daemon reads"
                )
            }
            guard roads[index].oneway.allows(step.direction) else {
                throw RouteRequestError(
                    .againstOneway,
                    "link \(step.link.rawValue) (index \(index)) is driven against its one-way direction: send forward = \(step.direction != .forward)"
                )
            }
        }
        for index in 0..<(links.count - 1)
        where roads[index].exitNode(links[index].direction) != roads[index + 1].entryNode(links[index + 1].direction) {
            throw RouteRequestError(
                .disconnected,
                "links \(links[index].link.rawValue) (index \(index)) and \(links[index + 1].link.rawValue) do not meet: a route is a connected sequence of directed links"
            )
        }
    }

    /// What is left of the active route from the vehicle, leg by leg.
    private func describeRoute() throws(RouteRequestError) -> RouteDescription {
        guard let active = routes.active else {
            throw RouteRequestError(.noRoute, "there is no active route: set a destination or a route first")
        }
        let remaining = Array(active.links[min(active.progress, active.links.count - 1)...])
        return try planning {
            let planner = routes.planner
            var from = try entry(of: remaining[0])
            if let position = pipeline.lastMatch?.state.position, position.link == remaining[0] {
                from = RouteEndpoint.vehicle(
                    on: position.link, offset: position.offset, point: position.point, linkLength: from.linkLength)
            }
            var legs: [RouteDescription.Leg] = []
            var start = 0
            for stop in active.stops {
                guard let end = remaining[start...].firstIndex(where: { $0.link == stop.link }) else { break }
                let leg = try planner.leg(along: Array(remaining[start...end]), from: from, to: stop)
                legs.append(.init(length: leg.length, duration: leg.duration))
                (from, start) = (stop, end)
            }
            if active.stops.isEmpty, let last = remaining.last {
                let link = try planner.network.link(last.link)
                let end = RouteEndpoint.vehicle(
                    on: last, offset: link.length, point: from.placed, linkLength: link.length)
                let leg = try planner.leg(along: remaining, from: from, to: end)
                legs.append(.init(length: leg.length, duration: leg.duration))
            }
            return RouteDescription(
                id: active.id, links: remaining, length: legs.reduce(0) { $0 + $1.length },
                duration: legs.reduce(0) { $0 + $1.duration }, legs: legs)
        }
    }

    /// The start of `link` in its driving direction, as an endpoint.
    private func entry(of link: DirectedLink) throws -> RouteEndpoint {
        let road = try map.link(link.link)
        let point =
            (link.direction == .forward ? road.geometry.first : road.geometry.last)
            ?? GeoPoint(latitude: 0, longitude: 0)
        return RouteEndpoint.vehicle(on: link, offset: 0, point: point, linkLength: road.length)
    }
}

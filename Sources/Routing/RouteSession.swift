import RoadMap

/// The active route and its continuous replanning: tracks the vehicle along the route, replans
/// when it leaves it (deviation), refreshes the remaining time periodically, looks for a better
/// route at the same time (replacing the active one or proposing it, by
/// ``RouteSessionConfiguration/acceptance``) and retries failed plans with growing delays, as
/// `../shared/docs/replanning.md` describes TomTom's behaviour.
///
/// Deterministic: time comes in with every call (seconds on any monotonic clock); nothing is read
/// from a clock. Each call returns what happened as ``RouteEvent``s, in order.
public struct RouteSession {
    /// The planner routes are made with.
    public var planner: RoutePlanner
    /// How the session replans.
    public var configuration: RouteSessionConfiguration
    /// The route the horizon follows, if any.
    public internal(set) var active: ActiveRoute?
    /// A better route waiting for the client's or the driver's decision (manual acceptance).
    public internal(set) var proposal: ProposedRoute?

    var nextID = 1
    var offRouteFixes = 0
    var lastRefresh = 0.0
    private var failedAttempts = 0
    private var retryAt: Double?
    private var deviations = 0

    /// Creates a session without a route.
    public init(planner: RoutePlanner, configuration: RouteSessionConfiguration = RouteSessionConfiguration()) {
        self.planner = planner
        self.configuration = configuration
    }

    /// Where the vehicle is, as the map matcher placed it.
    public struct VehiclePosition: Hashable, Sendable {
        /// The link and the direction it is driven in.
        public var link: DirectedLink
        /// Metres from the link's entry in the driving direction.
        public var offset: Double
        /// The matched point.
        public var point: GeoPoint

        /// Creates a position.
        public init(link: DirectedLink, offset: Double, point: GeoPoint) {
            self.link = link
            self.offset = offset
            self.point = point
        }
    }

    /// The directed links the horizon should follow, or `nil` without a route.
    public var links: [DirectedLink]? { active?.links }

    /// Where a route planned by ``setDestination(_:via:from:time:)`` starts.
    public enum Origin: Hashable, Sendable {
        /// The vehicle as matched: the route leaves its link in its driving direction.
        case vehicle(VehiclePosition)
        /// A point, placed on the nearest road (either direction).
        case point(GeoPoint)
    }

    /// Plans a route from `origin` through `via` to `destination` and makes it active. A failure
    /// changes nothing and is thrown.
    public mutating func setDestination(
        _ destination: GeoPoint, via: [GeoPoint] = [], from origin: Origin, time: Double
    ) throws -> [RouteEvent] {
        let stops = try (via + [destination]).map(planner.candidates(near:))
        let start: [RouteEndpoint]
        switch origin {
        case .vehicle(let position): start = [try vehicleEndpoint(position)]
        case .point(let point): start = try planner.candidates(near: point)
        }
        let (route, endpoints) = try planner.plan(candidates: [start] + stops)
        return replace(
            with: ActiveRoute(planned: route, stops: Array(endpoints.dropFirst())), reason: .manual, time: time)
    }

    /// Makes `links` (planned elsewhere) the active route. After a deviation the session leads the
    /// vehicle back to it, at most ``RouteSessionConfiguration/rejoinCutoff`` metres ahead of
    /// where it left, doubling that distance after each further deviation.
    public mutating func importRoute(_ links: [DirectedLink], time: Double) -> [RouteEvent] {
        deviations = 0
        return replace(with: ActiveRoute(id: 0, links: links, stops: [], imported: links), reason: .manual, time: time)
    }

    /// Drops the active route (and a pending proposal); the horizon falls back to prediction.
    public mutating func clear() -> [RouteEvent] {
        guard let active else { return [] }
        var events = withdrawProposal(reason: .manual)
        self.active = nil
        retryAt = nil
        events.append(.routeRemoved(id: active.id, reason: .manual))
        return events
    }

    /// Takes the vehicle's position at `time` (`nil` while it is not matched to a road) and
    /// returns what changed.
    public mutating func update(_ position: VehiclePosition?, time: Double) -> [RouteEvent] {
        guard active != nil, let position else { return [] }
        var events = decideBySteering(position, time: time)
        guard var route = active else { return events }
        if let index = route.index(of: position.link) {
            route.progress = index
            route.everOnRoute = true
            offRouteFixes = 0
            retryAt = nil
            failedAttempts = 0
            active = route
            if index == route.links.count - 1, arrived(at: position, on: route) {
                events += withdrawProposal(reason: .arrival)
                self.active = nil
                return events + [.arrived(id: route.id), .routeRemoved(id: route.id, reason: .arrival)]
            }
            if configuration.routeUpdates, time - lastRefresh >= configuration.replanInterval {
                lastRefresh = time
                let leg = try? remainingLeg(of: route, from: position)
                if let leg {
                    events.append(
                        .routeUpdated(id: route.id, reason: .refresh, remaining: leg.duration, length: leg.length))
                }
                events += lookForBetterRoute(than: route, remaining: leg, from: position, time: time)
            }
            return events
        }
        if offRouteFixes < configuration.offRouteFixes, isNear(position, route) { return events }
        offRouteFixes += 1
        if offRouteFixes == configuration.offRouteFixes {
            events.append(.deviated(id: route.id, link: position.link))
            if route.imported != nil { deviations += 1 }
            if configuration.deviationReplanning == .automatic { retryAt = time }
        }
        if let due = retryAt, time >= due {
            do {
                let replanned = try replan(route, from: position)
                events += withdrawProposal(reason: .deviation)
                events += replace(with: replanned, reason: .deviation, time: time)
                failedAttempts = 0
                retryAt = nil
            } catch {
                failedAttempts += 1
                let next = time + configuration.retry.delay(afterFailures: failedAttempts)
                retryAt = next
                events.append(.planningFailed(error as? RoutingError ?? .mapUnreadable("\(error)"), retryAt: next))
            }
        }
        return events
    }

    // MARK: - Internals

    mutating func replace(with route: ActiveRoute, reason: RouteChangeReason, time: Double) -> [RouteEvent] {
        var route = route
        route.id = nextID
        nextID += 1
        var events: [RouteEvent] = [
            .routeAdded(id: route.id, reason: reason), .activeRouteChanged(id: route.id, reason: reason),
        ]
        if let old = active { events.append(.routeRemoved(id: old.id, reason: reason)) }
        active = route
        lastRefresh = time
        offRouteFixes = 0
        return events
    }

    func vehicleEndpoint(_ position: VehiclePosition) throws -> RouteEndpoint {
        let link = try planner.network.link(position.link.link)
        return RouteEndpoint.vehicle(
            on: position.link, offset: position.offset, point: position.point, linkLength: link.length)
    }

    /// A new route from the vehicle: to the remaining stops of a planned route, or back onto an
    /// imported one at the rejoin point.
    private func replan(_ route: ActiveRoute, from position: VehiclePosition) throws -> ActiveRoute {
        let start = try vehicleEndpoint(position)
        guard let imported = route.imported else {
            let stops = remainingStops(of: route, at: position)
            return ActiveRoute(planned: try planner.plan(through: [start] + stops), stops: stops)
        }
        // Rejoin the imported route at the first link starting at least the cutoff beyond where
        // the vehicle left it (its start when it was never on it).
        let cutoff = configuration.rejoinCutoff * Double(1 << min(max(deviations - 1, 0), 10))
        let left = imported.firstIndex(of: route.links[route.progress]) ?? 0
        var index = route.everOnRoute ? left + 1 : 0
        var ahead = 0.0
        while index < imported.count - 1, route.everOnRoute, ahead < cutoff {
            ahead += try planner.network.link(imported[index].link).length
            index += 1
        }
        let rejoin = imported[index]
        let link = try planner.network.link(rejoin.link)
        let entry = RouteEndpoint.vehicle(
            on: rejoin, offset: 0,
            point: (rejoin.direction == .forward ? link.geometry.first : link.geometry.last) ?? position.point,
            linkLength: link.length)
        let planned = try planner.plan(through: [start, entry])
        var links = planned.links
        if links.last == rejoin { links.removeLast() }
        links += imported[index...]
        return ActiveRoute(id: 0, links: links, stops: [], imported: imported)
    }

    private func arrived(at position: VehiclePosition, on route: ActiveRoute) -> Bool {
        guard let destination = route.stops.last else { return false }
        return passed(destination, at: position)
    }

    /// Whether the vehicle, on the link `stop` lies on, is at or beyond it (within 5 m).
    private func passed(_ stop: RouteEndpoint, at position: VehiclePosition) -> Bool {
        let along = stop.fraction(position.link.direction) * stop.linkLength
        return position.offset >= along - 5
    }

    /// The stops of a planned route the vehicle has not passed yet: a via point counts as passed
    /// once the vehicle is beyond the link it lies on, or beyond the point on that link.
    func remainingStops(of route: ActiveRoute, at position: VehiclePosition) -> [RouteEndpoint] {
        guard route.stopIndices.count == route.stops.count else { return route.stops }
        let onLink = route.links.indices.contains(route.progress) && position.link == route.links[route.progress]
        var stops: [RouteEndpoint] = []
        for (number, (stop, index)) in zip(route.stops, route.stopIndices).enumerated() {
            let last = number == route.stops.count - 1
            if !last, index < route.progress || (index == route.progress && (!onLink || passed(stop, at: position))) {
                continue
            }
            stops.append(stop)
        }
        return stops
    }

    func remainingLeg(of route: ActiveRoute, from position: VehiclePosition) throws -> PlannedRoute.Leg {
        let start = try vehicleEndpoint(position)
        let links = Array(route.links[route.progress...])
        let end: RouteEndpoint
        if let destination = route.stops.last {
            end = destination
        } else {
            let last = links[links.count - 1]
            let link = try planner.network.link(last.link)
            end = RouteEndpoint.vehicle(on: last, offset: link.length, point: position.point, linkLength: link.length)
        }
        return try planner.leg(along: links, from: start, to: end)
    }
}

/// The route a ``RouteSession`` follows.
public struct ActiveRoute: Hashable, Sendable {
    /// Its identifier in the session's events.
    public var id: Int
    /// The directed links, in driving order.
    public var links: [DirectedLink]
    /// The via points not yet passed and the destination (empty for an imported route).
    public var stops: [RouteEndpoint]
    /// The route as imported, when it was planned elsewhere.
    public var imported: [DirectedLink]?
    /// The index in ``links`` of the link the vehicle was last seen on.
    public var progress = 0
    /// Whether the vehicle has been on this route at all.
    public internal(set) var everOnRoute = false
    /// For each of ``stops``, the index in ``links`` of the link it lies on (empty when unknown).
    public internal(set) var stopIndices: [Int] = []

    /// Creates a route.
    public init(id: Int, links: [DirectedLink], stops: [RouteEndpoint], imported: [DirectedLink]?) {
        self.id = id
        self.links = links
        self.stops = stops
        self.imported = imported
    }

    /// A route planned to `stops` (the endpoints after its origin), not yet numbered.
    init(planned: PlannedRoute, stops: [RouteEndpoint]) {
        self.init(id: 0, links: planned.links, stops: stops, imported: nil)
        stopIndices = planned.legEndIndices
    }

    /// The index of `link` at or after the vehicle's progress (within the next 50 links), if the
    /// route drives it there.
    func index(of link: DirectedLink) -> Int? {
        let end = min(links.count, progress + 50)
        guard progress < end else { return nil }
        return links[progress..<end].firstIndex(of: link)
    }
}

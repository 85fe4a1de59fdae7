import RoadMap

/// A better route found at a periodic replan, waiting for a decision (manual acceptance, or
/// unreachable-only acceptance while the active route is not blocked).
public struct ProposedRoute: Hashable, Sendable {
    /// Its identifier in the session's events.
    public var id: Int
    /// Why it was found: ``RouteChangeReason/betterRoute`` or ``RouteChangeReason/avoidBlockage``.
    public var reason: RouteChangeReason
    /// The directed links, from the vehicle's link when it was found to the destination.
    public var links: [DirectedLink]
    /// The stops it leads to (the active route's remaining stops).
    public var stops: [RouteEndpoint]
    /// Seconds it saves over the rest of the active route, as found.
    public var timeSaved: Double
    /// Estimated seconds from where it was found to the destination.
    public var duration: Double
    /// How many of its first links it shares with the active route: ``links``[`sharedLinks`] is
    /// where it turns off.
    public var sharedLinks: Int
    /// The index in the active route's links of the first link the proposal leaves out (the
    /// divergence): a vehicle seen there has stayed on the active route.
    public var activeDivergence: Int
    /// For each of ``stops``, the index in ``links`` of the link it lies on.
    var stopIndices: [Int]
}

extension RouteSession {
    /// Replaces the traffic (delays, closures) routes are costed with. The next fix on the route
    /// refreshes it and looks for a better route at once, so a new blockage is acted on without
    /// waiting for the replan interval (with route updates on).
    public mutating func setTraffic(_ traffic: RouteTraffic) {
        planner.traffic = traffic
        lastRefresh = -.infinity
    }

    /// Makes the pending proposal the active route; the old route is removed (reason
    /// ``RouteChangeReason/manual``: the client chose). Throws ``RoutingError/noProposal`` when
    /// there is none.
    public mutating func acceptProposal(time: Double) throws(RoutingError) -> [RouteEvent] {
        guard let proposal else { throw RoutingError.noProposal }
        var progress = 0
        if let route = active, route.progress >= proposal.activeDivergence - proposal.sharedLinks,
            route.progress < proposal.activeDivergence
        {
            progress = route.progress - (proposal.activeDivergence - proposal.sharedLinks)
        }
        return activate(proposal, progress: progress, reason: .manual, time: time)
    }

    /// Drops the pending proposal (``RouteEvent/routeRemoved(id:reason:)``, reason
    /// ``RouteChangeReason/manual``); the active route stays. Throws ``RoutingError/noProposal``
    /// when there is none.
    public mutating func rejectProposal(time: Double) throws(RoutingError) -> [RouteEvent] {
        guard proposal != nil else { throw RoutingError.noProposal }
        return withdrawProposal(reason: .manual)
    }

    /// Removes a pending proposal, if any, with `reason`.
    mutating func withdrawProposal(reason: RouteChangeReason) -> [RouteEvent] {
        guard let proposal else { return [] }
        self.proposal = nil
        return [.routeRemoved(id: proposal.id, reason: reason)]
    }

    /// Metres a vehicle must be into the active route's link past the divergence before staying on
    /// the active route declines a proposal: a match a metre past the junction node is within GNSS
    /// noise of a vehicle still turning (nav-kaisaniemi-bulevardi-deviation at 102 s: 0.7 m into
    /// the route's link, mid-turn onto the proposal's).
    static let steeringDecisionMargin = 10.0

    /// Decide by steering: with a proposal pending, a vehicle on the proposal's own links (past
    /// where it leaves the active route) takes it, with the proposal's reason; a vehicle on the
    /// active route past that point (at least ``steeringDecisionMargin`` into its first link there)
    /// has stayed, and the proposal is withdrawn (manual).
    mutating func decideBySteering(_ position: VehiclePosition, time: Double) -> [RouteEvent] {
        guard let proposal, let route = active else { return [] }
        if let index = route.index(of: position.link), index >= proposal.activeDivergence {
            guard index > proposal.activeDivergence || position.offset >= Self.steeringDecisionMargin else { return [] }
            return withdrawProposal(reason: .manual)
        }
        let own = proposal.links[proposal.sharedLinks...]
        guard route.index(of: position.link) == nil, let index = own.firstIndex(of: position.link) else { return [] }
        return activate(proposal, progress: index, reason: proposal.reason, time: time)
    }

    /// Makes `proposal` the active route, the vehicle at `progress` on it.
    private mutating func activate(_ proposal: ProposedRoute, progress: Int, reason: RouteChangeReason, time: Double)
        -> [RouteEvent]
    {
        var route = ActiveRoute(id: proposal.id, links: proposal.links, stops: proposal.stops, imported: nil)
        route.stopIndices = proposal.stopIndices
        route.progress = progress
        route.everOnRoute = active?.everOnRoute ?? false
        var events: [RouteEvent] = [.activeRouteChanged(id: proposal.id, reason: reason)]
        if let old = active { events.append(.routeRemoved(id: old.id, reason: reason)) }
        self.proposal = nil
        active = route
        lastRefresh = time
        offRouteFixes = 0
        return events
    }

    /// The periodic search for a better route: plans from the vehicle to the remaining stops and
    /// compares with the rest of `route` (`remaining`, its refreshed leg). Better means: the
    /// active route is blocked ahead (reason avoidBlockage); or the new route saves at least
    /// ``RouteSessionConfiguration/minTimeDifference``; or the active route carries at least
    /// ``RouteSessionConfiguration/minTrafficDelay`` of traffic delay and the new route is faster
    /// with less delay (reason betterRoute). Imported routes have no stops and are not searched.
    mutating func lookForBetterRoute(
        than route: ActiveRoute, remaining: PlannedRoute.Leg?, from position: VehiclePosition, time: Double
    ) -> [RouteEvent] {
        guard !route.stops.isEmpty else { return [] }
        let ahead = route.links[route.progress...]
        let blocked = ahead.dropFirst().contains { planner.traffic.isClosed($0) }
        let stops = remainingStops(of: route, at: position)
        let candidate: PlannedRoute
        do {
            candidate = try planner.plan(through: [try vehicleEndpoint(position)] + stops)
        } catch {
            // Not finding a route matters only when the active one is blocked; the next try comes
            // at the next periodic replan.
            guard blocked else { return [] }
            return [
                .planningFailed(
                    error as? RoutingError ?? .mapUnreadable("\(error)"), retryAt: time + configuration.replanInterval)
            ]
        }
        guard candidate.links != Array(ahead) else { return [] }
        let saved = (remaining?.duration ?? .infinity) - candidate.duration
        let delay = remaining?.breakdown.traffic ?? 0
        let reason: RouteChangeReason
        if blocked {
            reason = .avoidBlockage
        } else if saved >= configuration.minTimeDifference
            || (delay >= configuration.minTrafficDelay && saved > 0 && candidate.trafficDelay < delay)
        {
            reason = .betterRoute
        } else {
            return []
        }
        let timeSaved = saved.isFinite ? saved : 0
        switch (configuration.acceptance, reason) {
        case (.automatic, _), (.unreachableOnly, .avoidBlockage):
            var events = withdrawProposal(reason: reason)
            events += replace(with: ActiveRoute(planned: candidate, stops: stops), reason: reason, time: time)
            return events
        default:
            if let pending = proposal, pending.links.reversed().starts(with: candidate.links.reversed()) {
                return []  // the same proposal, seen from further along
            }
            var events = withdrawProposal(reason: reason)
            var shared = 0
            while shared < candidate.links.count, route.progress + shared < route.links.count,
                candidate.links[shared] == route.links[route.progress + shared]
            {
                shared += 1
            }
            let proposed = ProposedRoute(
                id: nextID, reason: reason, links: candidate.links, stops: stops, timeSaved: timeSaved,
                duration: candidate.duration, sharedLinks: shared, activeDivergence: route.progress + shared,
                stopIndices: candidate.legEndIndices)
            nextID += 1
            proposal = proposed
            events += [
                .routeAdded(id: proposed.id, reason: reason),
                .routeProposed(id: proposed.id, reason: reason, timeSaved: timeSaved),
            ]
            return events
        }
    }
}

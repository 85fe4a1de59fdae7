import RoadMap

/// Plans the fastest legal route on a road map: from an origin through optional via points to a
/// destination, obeying one-way streets and turn restrictions (the map's successors), costed by
/// a ``RouteCostModel``. Deterministic: the same map and points give the same route.
public struct RoutePlanner {
    /// The road map.
    public let network: any RoadNetwork
    /// What a route costs.
    public var costModel: RouteCostModel
    /// Delays and closures from traffic, added to the cost model (none by default).
    public var traffic: RouteTraffic
    /// How far from a road a requested point may lie, in metres.
    public var placementRadius: Double
    /// How many links near each requested point the planner may try, nearest first, when a route
    /// cannot leave or reach the nearest (``RouteEndpoint/candidates(_:in:radius:limit:slack:)``).
    public var candidateLinks: Int
    /// How many links one leg's search may visit before it gives up (a guard against a search of
    /// a whole country for an unreachable point).
    public var searchLimit: Int

    /// Creates a planner on `network`.
    public init(
        network: any RoadNetwork, costModel: RouteCostModel = RouteCostModel(), placementRadius: Double = 200,
        searchLimit: Int = 5_000_000, traffic: RouteTraffic = RouteTraffic(), candidateLinks: Int = 3
    ) {
        self.candidateLinks = candidateLinks
        self.network = network
        self.costModel = costModel
        self.traffic = traffic
        self.placementRadius = placementRadius
        self.searchLimit = searchLimit
    }

    /// The fastest route from `origin` through `via`, in order, to `destination`.
    public func plan(from origin: GeoPoint, to destination: GeoPoint, via: [GeoPoint] = []) throws -> PlannedRoute {
        try plan(candidates: try ([origin] + via + [destination]).map(candidates(near:))).route
    }

    /// The links near `point` a route may start, pass or end on, nearest first.
    func candidates(near point: GeoPoint) throws -> [RouteEndpoint] {
        try RouteEndpoint.candidates(point, in: network, radius: placementRadius, limit: candidateLinks)
    }

    /// The fastest route through one endpoint of each list, and the endpoints used: the nearest of
    /// each, and where a leg is unreachable from or to them, the next candidates of its end, then of
    /// its start. The error of the nearest endpoints when no candidates connect.
    func plan(candidates: [[RouteEndpoint]]) throws -> (route: PlannedRoute, endpoints: [RouteEndpoint]) {
        var chosen = candidates.map { _ in 0 }
        var firstError: RoutingError?
        while true {
            let endpoints = zip(candidates, chosen).map { $0[$1] }
            do {
                return (try plan(through: endpoints), endpoints)
            } catch RoutingError.unreachable(let leg, let from, let to) {
                let error = firstError ?? RoutingError.unreachable(leg: leg, from: from, to: to)
                firstError = error
                if chosen[leg] + 1 < candidates[leg].count {
                    chosen[leg] += 1
                } else if chosen[leg - 1] + 1 < candidates[leg - 1].count {
                    chosen[leg - 1] += 1
                    chosen[leg] = 0
                } else {
                    throw error
                }
            }
        }
    }

    /// The fastest route through placed endpoints (at least two), one leg between each pair.
    public func plan(through endpoints: [RouteEndpoint]) throws -> PlannedRoute {
        precondition(endpoints.count >= 2, "a route needs an origin and a destination")
        var legs: [PlannedRoute.Leg] = []
        var costs = LinkCosts(network: network, model: costModel, traffic: traffic)
        for index in 1..<endpoints.count {
            let from = endpoints[index - 1], to = endpoints[index]
            var search = LegSearch(costs: costs, origin: from, destination: to, leg: index, limit: searchLimit)
            guard let result = try search.run() else {
                throw RoutingError.unreachable(leg: index, from: from.requested, to: to.requested)
            }
            costs = search.costs
            legs.append(
                PlannedRoute.Leg(
                    from: from, to: to, links: result.links, duration: result.seconds,
                    length: try length(of: result.links, from: from, to: to, costs: &costs),
                    breakdown: try breakdown(of: result.links, from: from, to: to, costs: &costs)))
        }
        return PlannedRoute(legs: legs)
    }

    /// The leg that drives `links` from `from` to `to` as they are, costed under the current model:
    /// what a refresh recomputes for the part of a route still ahead.
    public func leg(along links: [DirectedLink], from: RouteEndpoint, to: RouteEndpoint) throws -> PlannedRoute.Leg {
        var costs = LinkCosts(network: network, model: costModel, traffic: traffic)
        let parts = try breakdown(of: links, from: from, to: to, costs: &costs)
        return PlannedRoute.Leg(
            from: from, to: to, links: links, duration: parts.driving + parts.signals + parts.turns + parts.traffic,
            length: try length(of: links, from: from, to: to, costs: &costs), breakdown: parts)
    }

    /// Where a leg's time goes. Signals and traffic delays count on the part of a link driven; the search itself
    /// charges the first and last links by share, so the parts add up to the leg's duration.
    private func breakdown(
        of links: [DirectedLink], from: RouteEndpoint, to: RouteEndpoint,
        costs: inout LinkCosts
    ) throws -> PlannedRoute.CostBreakdown {
        var parts = PlannedRoute.CostBreakdown()
        for (index, directed) in links.enumerated() {
            let link = try costs.link(directed.link)
            var share = 1.0
            if index == 0 { share -= from.fraction(directed.direction) }
            if index == links.count - 1 { share -= 1 - to.fraction(directed.direction) }
            let signals = costModel.signals(on: link, directed.direction)
            parts.driving += share * costModel.drivingTime(on: link, directed.direction)
            parts.signals += share * Double(signals) * costModel.signalPenalty
            parts.traffic += share * traffic.delay(on: directed)
            if share == 1 { parts.signalCount += signals }
            if index > 0 {
                let turn = try costs.turn(links[index - 1], directed)
                parts.turns += turn
                if turn > 0 { parts.turnCount += 1 }
            }
        }
        return parts
    }

    /// Metres driven on `links`, from the placed origin on the first to the placed destination on
    /// the last.
    private func length(of links: [DirectedLink], from: RouteEndpoint, to: RouteEndpoint, costs: inout LinkCosts) throws
        -> Double
    {
        guard let first = links.first, let last = links.last else { return 0 }
        if links.count == 1 {
            return (to.fraction(first.direction) - from.fraction(first.direction)) * from.linkLength
        }
        var metres =
            (1 - from.fraction(first.direction)) * from.linkLength + to.fraction(last.direction) * to.linkLength
        for link in links.dropFirst().dropLast() { metres += try costs.link(link.link).length }
        return metres
    }
}

import RoadMap

/// The fastest way between two placed points: a bidirectional A* on directed links.
///
/// Forward labels `g(x)`: seconds from the origin to the end of directed link `x`. Backward
/// labels `r(x)`: seconds from the end of `x` to the destination. Both searches use the same
/// balanced potential `p(x) = (πd(x) − πo(x)) / 2`, where `πd` and `πo` are the straight-line
/// distances from the end of `x` to the destination and from the origin, divided by the fastest
/// speed of the cost model: keys `g + p` and `r − p` then add up to the cost of a path through
/// `x`, and the search stops once the two smallest keys add up to the best path found (Goldberg
/// and Harrelson's stopping rule). The result is exactly the cheapest legal route.
struct LegSearch {
    var costs: LinkCosts
    let origin: RouteEndpoint
    let destination: RouteEndpoint
    /// Which leg of the route this is (from 1), for the errors.
    let leg: Int
    let limit: Int

    /// The result of one leg: its directed links, from the origin's link to the destination's.
    struct Result {
        var links: [DirectedLink]
        var seconds: Double
    }

    private var forward: [DirectedLink: (cost: Double, previous: DirectedLink?)] = [:]
    private var backward: [DirectedLink: (cost: Double, next: DirectedLink, terminal: Bool)] = [:]
    private var forwardQueue = DirectedLinkQueue()
    private var backwardQueue = DirectedLinkQueue()
    /// The cheapest path offered so far: through `meeting`, or along `meeting` alone when `direct`
    /// (the destination lies ahead on the origin's own link).
    private var best: (cost: Double, meeting: DirectedLink, direct: Bool)? = nil

    init(costs: LinkCosts, origin: RouteEndpoint, destination: RouteEndpoint, leg: Int, limit: Int) {
        self.costs = costs
        self.origin = origin
        self.destination = destination
        self.leg = leg
        self.limit = limit
    }

    private mutating func potential(_ link: DirectedLink) throws -> Double {
        let end = try costs.end(link)
        let speed = costs.model.fastestSpeed
        return (end.distance(to: destination.placed) - origin.placed.distance(to: end)) / (2 * speed)
    }

    private mutating func allowedDirections(_ endpoint: RouteEndpoint) throws -> [LinkDirection] {
        let link = try costs.link(endpoint.link)
        return [LinkDirection.forward, .backward].filter { link.oneway.allows($0) && (endpoint.direction ?? $0) == $0 }
    }

    private mutating func offer(_ cost: Double, meeting: DirectedLink, direct: Bool = false) {
        if cost < (best?.cost ?? .infinity) { best = (cost, meeting, direct) }
    }

    /// Runs the search; `nil` when the destination cannot be reached.
    mutating func run() throws -> Result? {
        // The origin's link in each drivable direction, from the placed point to its end.
        for direction in try allowedDirections(origin) {
            let start = DirectedLink(origin.link, direction)
            let cost = (1 - origin.fraction(direction)) * (try costs.time(start))
            forward[start] = (cost, nil)
            forwardQueue.push(cost + (try potential(start)), start)
            // Origin and destination on the same link, the destination ahead: drive straight there.
            if destination.link == origin.link, destination.fraction(direction) >= origin.fraction(direction) {
                offer(
                    (destination.fraction(direction) - origin.fraction(direction)) * (try costs.time(start)),
                    meeting: start, direct: true)
            }
        }
        // Every link that leads onto the destination's link, with the cost of driving on to it.
        for direction in try allowedDirections(destination) {
            let target = DirectedLink(destination.link, direction)
            guard !costs.traffic.isClosed(target) else { continue }
            let partial = destination.fraction(direction) * (try costs.time(target))
            for previous in try costs.predecessors(target) {
                let cost = try costs.turn(previous, target) + partial
                if cost < backward[previous]?.cost ?? .infinity {
                    backward[previous] = (cost, target, true)
                    backwardQueue.push(cost - (try potential(previous)), previous)
                }
            }
        }
        for (link, label) in backward { if let g = forward[link]?.cost { offer(g + label.cost, meeting: link) } }

        var settled = 0
        while !forwardQueue.isEmpty || !backwardQueue.isEmpty {
            if forwardQueue.topKey + backwardQueue.topKey >= (best?.cost ?? .infinity) { break }
            if forwardQueue.isEmpty || backwardQueue.isEmpty {
                // One side has seen everything it can reach: every path has been offered.
                break
            }
            settled += 1
            if settled > limit { throw RoutingError.searchLimitReached(leg: leg, limit: limit) }
            if forwardQueue.topKey <= backwardQueue.topKey { try stepForward() } else { try stepBackward() }
        }
        guard let best else { return nil }
        return Result(links: best.direct ? [best.meeting] : path(through: best.meeting), seconds: best.cost)
    }

    private mutating func stepForward() throws {
        guard let (key, link) = forwardQueue.pop(), let label = forward[link] else { return }
        guard key <= label.cost + (try potential(link)) + 1e-9 else { return }
        for next in try costs.successors(link) {
            let cost = label.cost + (try costs.turn(link, next)) + (try costs.time(next))
            guard cost < forward[next]?.cost ?? .infinity else { continue }
            forward[next] = (cost, link)
            forwardQueue.push(cost + (try potential(next)), next)
            if let r = backward[next]?.cost { offer(cost + r, meeting: next) }
        }
    }

    private mutating func stepBackward() throws {
        guard let (key, link) = backwardQueue.pop(), let label = backward[link] else { return }
        guard key <= label.cost - (try potential(link)) + 1e-9 else { return }
        let onward = try costs.time(link) + label.cost
        for previous in try costs.predecessors(link) {
            let cost = (try costs.turn(previous, link)) + onward
            guard cost < backward[previous]?.cost ?? .infinity else { continue }
            backward[previous] = (cost, link, false)
            backwardQueue.push(cost - (try potential(previous)), previous)
            if let g = forward[previous]?.cost { offer(g + cost, meeting: previous) }
        }
    }

    /// The links from the origin's to the destination's, through the meeting link.
    private func path(through meeting: DirectedLink) -> [DirectedLink] {
        var links: [DirectedLink] = [meeting]
        var cursor = meeting
        while let previous = forward[cursor]?.previous {
            links.append(previous)
            cursor = previous
        }
        links.reverse()
        cursor = meeting
        while let label = backward[cursor] {
            links.append(label.next)
            if label.terminal { break }
            cursor = label.next
        }
        return links
    }
}

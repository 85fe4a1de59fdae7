import RoadMap

/// The links, costs and neighbours one route query looks at, each read from the map once.
///
/// The search runs on directed links (a state is "at the end of this link, having driven it"),
/// so turn restrictions and turn penalties apply exactly at the junction between two links.
struct LinkCosts {
    private let network: any RoadNetwork
    let model: RouteCostModel
    let traffic: RouteTraffic
    private var links: [LinkID: RoadLink] = [:]
    private var times: [DirectedLink: Double] = [:]
    private var successorLists: [DirectedLink: [DirectedLink]] = [:]
    private var predecessorLists: [DirectedLink: [DirectedLink]] = [:]

    init(network: any RoadNetwork, model: RouteCostModel, traffic: RouteTraffic = RouteTraffic()) {
        self.network = network
        self.model = model
        self.traffic = traffic
    }

    mutating func link(_ id: LinkID) throws -> RoadLink {
        if let link = links[id] { return link }
        let link = try network.link(id)
        links[id] = link
        return link
    }

    /// Seconds to drive the whole directed link, its traffic delay included.
    mutating func time(_ directed: DirectedLink) throws -> Double {
        if let time = times[directed] { return time }
        let time = model.travelTime(on: try link(directed.link), directed.direction) + traffic.delay(on: directed)
        times[directed] = time
        return time
    }

    /// The point where the directed link ends.
    mutating func end(_ directed: DirectedLink) throws -> GeoPoint {
        let geometry = try link(directed.link).geometry
        return (directed.direction == .forward ? geometry.last : geometry.first) ?? GeoPoint(latitude: 0, longitude: 0)
    }

    /// Seconds lost turning from `from` onto `to` at the junction between them.
    mutating func turn(_ from: DirectedLink, _ to: DirectedLink) throws -> Double {
        model.turnPenalty(arrival: try heading(from, atEnd: true), departure: try heading(to, atEnd: false))
    }

    /// The heading of the directed link's first (or last) piece of geometry.
    private mutating func heading(_ directed: DirectedLink, atEnd: Bool) throws -> Double {
        var points = try link(directed.link).geometry
        if directed.direction == .backward { points.reverse() }
        guard points.count > 1 else { return 0 }
        return atEnd ? points[points.count - 2].bearing(to: points[points.count - 1]) : points[0].bearing(to: points[1])
    }

    /// The directed links a route may take after `directed`: the map's legal successors, with the
    /// turn back onto the same link only at a dead end (a route never turns round at a junction),
    /// and never onto a link the traffic closed.
    mutating func successors(_ directed: DirectedLink) throws -> [DirectedLink] {
        if let list = successorLists[directed] { return list }
        var list = try network.successors(of: directed)
        if list.count > 1 { list.removeAll { $0 == directed.reversed } }
        list.removeAll { traffic.isClosed($0) }
        successorLists[directed] = list
        return list
    }

    /// The directed links after which `directed` is a legal successor: those arriving at its
    /// start node (the map's node adjacency) whose successors include it.
    mutating func predecessors(_ directed: DirectedLink) throws -> [DirectedLink] {
        if let list = predecessorLists[directed] { return list }
        let node = try link(directed.link).entryNode(directed.direction)
        var list: [DirectedLink] = []
        for previous in try network.incoming(to: node)
        where try !traffic.isClosed(previous) && successors(previous).contains(directed) {
            list.append(previous)
        }
        predecessorLists[directed] = list
        return list
    }
}

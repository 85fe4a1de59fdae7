import RoadMap
import TestSupport
import Testing
@testable import Routing

/// A plain one-directional Dijkstra over directed links, written apart from the planner: the
/// reference its bidirectional A* must agree with. Traffic delays add to a link's time; a closed
/// link is never entered.
private func referenceDuration(
    from origin: RouteEndpoint, to destination: RouteEndpoint, in network: InMemoryRoadNetwork,
    model: RouteCostModel, traffic: RouteTraffic = RouteTraffic()
) throws -> Double? {
    func heading(_ directed: DirectedLink, atEnd: Bool) throws -> Double {
        var points = try network.link(directed.link).geometry
        if directed.direction == .backward { points.reverse() }
        return atEnd ? points[points.count - 2].bearing(to: points[points.count - 1]) : points[0].bearing(to: points[1])
    }
    func time(_ directed: DirectedLink) throws -> Double {
        model.travelTime(on: try network.link(directed.link), directed.direction) + (traffic.delays[directed] ?? 0)
    }
    func share(_ endpoint: RouteEndpoint, _ direction: LinkDirection) -> Double {
        let forward = endpoint.offset / endpoint.linkLength
        return direction == .forward ? forward : 1 - forward
    }
    var best = Double.infinity
    var labels: [DirectedLink: Double] = [:]
    var open: [DirectedLink: Double] = [:]
    let originLink = try network.link(origin.link)
    for direction in [LinkDirection.forward, .backward] where originLink.oneway.allows(direction) {
        let start = DirectedLink(origin.link, direction)
        open[start] = (1 - share(origin, direction)) * (try time(start))
        if origin.link == destination.link, share(destination, direction) >= share(origin, direction) {
            best = min(best, (share(destination, direction) - share(origin, direction)) * (try time(start)))
        }
    }
    while let (link, cost) = open.min(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }) {
        open[link] = nil
        labels[link] = cost
        if cost >= best { break }
        var successors = try network.successors(of: link)
        if successors.count > 1 { successors.removeAll { $0 == link.reversed } }  // U-turns at dead ends only
        for next in successors where !traffic.closed.contains(next) {
            let turn = model.turnPenalty(
                arrival: try heading(link, atEnd: true), departure: try heading(next, atEnd: false))
            if next.link == destination.link {
                best = min(best, cost + turn + share(destination, next.direction) * (try time(next)))
            }
            let total = cost + turn + (try time(next))
            if labels[next] == nil, total < open[next] ?? .infinity { open[next] = total }
        }
    }
    return best.isFinite ? best : nil
}

@Suite("route planner")
struct RoutePlannerTests {
    @Test(
        "on 300 seeded random street grids (half with traffic) the bidirectional A* finds exactly the cheapest legal route"
    )
    func agreesWithDijkstra() throws {
        var generator: SplitMix64? = SplitMix64(seed: 2026)
        let model = RouteCostModel()
        var compared = 0, unreachable = 0
        for index in 0..<30 {
            let grid = GridNetwork(size: 8, generator: &generator)
            let network = grid.network
            // Every other grid has traffic: 120 s of delay on one directed link in ten, one in
            // twenty closed (from its own generator, so the grids and points stay the same).
            var traffic = RouteTraffic()
            if index % 2 == 1 {
                var random = SplitMix64(seed: UInt64(index))
                for link in grid.links {
                    for direction in [LinkDirection.forward, .backward] {
                        let directed = DirectedLink(link.id, direction)
                        switch Int.random(in: 0..<20, using: &random) {
                        case 0, 1: traffic.delays[directed] = 120
                        case 2: traffic.closed.insert(directed)
                        default: break
                        }
                    }
                }
            }
            let planner = RoutePlanner(network: network, costModel: model, traffic: traffic)
            for _ in 0..<10 {
                var random = generator!
                let a = GridNetwork.position(
                    row: Int.random(in: 0..<8, using: &random), column: Int.random(in: 0..<8, using: &random))
                let b = GridNetwork.position(
                    row: Int.random(in: 0..<8, using: &random), column: Int.random(in: 0..<8, using: &random))
                // Between junctions: 30 m east and 20 m north of one, so the point lies on a street.
                let from = GeoPoint(latitude: a.latitude, longitude: a.longitude + 30 / (111_320 * 0.4962))
                let to = GeoPoint(latitude: b.latitude + 20 / 111_320, longitude: b.longitude)
                generator = random
                guard let origin = try? RouteEndpoint.place(from, in: network, radius: 60),
                    let destination = try? RouteEndpoint.place(to, in: network, radius: 60)
                else { continue }
                let expected = try referenceDuration(
                    from: origin, to: destination, in: network, model: model, traffic: traffic)
                do {
                    let route = try planner.plan(through: [origin, destination])
                    let duration = try #require(expected, "the planner found a route the reference did not")
                    #expect(
                        abs(route.duration - duration) < 1e-6, "planner \(route.duration) s, reference \(duration) s")
                    // Every step of the route is a legal successor of the one before.
                    for (previous, next) in zip(route.links, route.links.dropFirst()) {
                        #expect(
                            try network.successors(of: previous).contains(next), "\(previous) → \(next) is not legal")
                        #expect(!traffic.isClosed(next), "\(next) is closed")
                    }
                    #expect(route.links.first?.link == origin.link && route.links.last?.link == destination.link)
                    compared += 1
                } catch RoutingError.unreachable {
                    #expect(expected == nil, "the planner missed a route of \(expected ?? 0) s")
                    unreachable += 1
                }
            }
        }
        #expect(compared > 200, "only \(compared) routes compared")
        #expect(unreachable > 0, "the grids never cut a destination off: the unreachable case is untested")
    }

    @Test("one-way streets are driven only their way, and a forbidden turn is avoided at a cost")
    func onewayAndRestrictions() throws {
        var none: SplitMix64? = nil
        var grid = GridNetwork(size: 3, generator: &none)
        // The middle row's street from (1,0) to (1,1) is one-way eastbound; going west must detour.
        let eastbound = grid.links.first {
            $0.startNode == grid.node(row: 1, column: 0) && $0.endNode == grid.node(row: 1, column: 1)
        }!
        grid.links = grid.links.map {
            var link = $0; if link.id == eastbound.id { link.oneway = .forward }; return link
        }
        let west = GridNetwork.position(row: 1, column: 0), east = GridNetwork.position(row: 1, column: 1)
        let middleWest = GeoPoint(latitude: west.latitude, longitude: west.longitude + 10 / (111_320 * 0.4962))
        let middleEast = GeoPoint(latitude: east.latitude, longitude: east.longitude - 10 / (111_320 * 0.4962))
        let planner = RoutePlanner(network: grid.network)
        let withTraffic = try planner.plan(from: middleWest, to: middleEast)
        #expect(withTraffic.links == [DirectedLink(eastbound.id, .forward)])
        #expect(abs(withTraffic.length - 80) < 1)
        let against = try planner.plan(from: middleEast, to: middleWest)
        #expect(!against.links.contains { $0.link == eastbound.id && $0.direction == .backward })
        #expect(against.length > 300, "a detour round the block, not \(against.length) m against the one-way")

        // Forbid the turn the detour takes first; the planner must find another way or none.
        let first = against.links[0], second = against.links[1]
        let junction = try grid.network.link(first.link).exitNode(first.direction)
        grid.restrictions = [TurnRestriction(from: first.link, via: junction, to: second.link, kind: .prohibitory)]
        let restricted = try RoutePlanner(network: grid.network).plan(from: middleEast, to: middleWest)
        #expect(!zip(restricted.links, restricted.links.dropFirst()).contains { $0 == first && $1 == second })
    }

    @Test("via points are visited in order, one leg each, and the legs add up")
    func viaPoints() throws {
        var none: SplitMix64? = nil
        let network = GridNetwork(size: 5, generator: &none).network
        let planner = RoutePlanner(network: network)
        let a = GridNetwork.position(row: 0, column: 0), via = GridNetwork.position(row: 4, column: 4)
        let b = GridNetwork.position(row: 0, column: 4)
        func nudge(_ p: GeoPoint) -> GeoPoint { GeoPoint(latitude: p.latitude + 30 / 111_320, longitude: p.longitude) }
        let direct = try planner.plan(from: nudge(a), to: nudge(b))
        let detour = try planner.plan(from: nudge(a), to: nudge(b), via: [nudge(via)])
        #expect(detour.legs.count == 2)
        #expect(detour.length > direct.length + 500)
        #expect(abs(detour.legs[0].length + detour.legs[1].length - detour.length) < 1e-6)
        #expect(detour.legs[0].to.link == detour.legs[1].from.link)
        #expect(detour.routeText.hasPrefix("# adasis route: "))
        #expect(detour.routeText.split(separator: "\n").filter { $0.hasPrefix("L") }.count == detour.links.count)
    }

    @Test("a point off the map or not a coordinate is a clear error, not a route")
    func badPoints() throws {
        var none: SplitMix64? = nil
        let planner = RoutePlanner(network: GridNetwork(size: 3, generator: &none).network)
        let onMap = GridNetwork.position(row: 0, column: 0)
        #expect(throws: RoutingError.noRoadNear(GeoPoint(latitude: 61, longitude: 25), radius: 200)) {
            try planner.plan(from: onMap, to: GeoPoint(latitude: 61, longitude: 25))
        }
        #expect(throws: RoutingError.invalidCoordinate(GeoPoint(latitude: 95, longitude: 25))) {
            try planner.plan(from: GeoPoint(latitude: 95, longitude: 25), to: onMap)
        }
        let message = RoutingError.noRoadNear(GeoPoint(latitude: 61, longitude: 25), radius: 200).description
        #expect(message.contains("61.0,25.0") && message.contains("adasis map info"))
    }

    @Test("turn penalties: straight on is free, crossing the traffic costs more than the near side, U-turns most")
    func turnPenalties() {
        let right = RouteCostModel(), left = RouteCostModel(keepsRight: false)
        #expect(right.turnPenalty(arrival: 0, departure: 20) == 0)
        #expect(right.turnPenalty(arrival: 0, departure: 90) == right.nearSideTurnPenalty)
        #expect(right.turnPenalty(arrival: 0, departure: 270) == right.crossingTurnPenalty)
        #expect(left.turnPenalty(arrival: 0, departure: 270) == left.nearSideTurnPenalty)
        #expect(right.turnPenalty(arrival: 350, departure: 175) == right.uTurnPenalty)
        #expect(right.crossingTurnPenalty > right.nearSideTurnPenalty)
    }
}

@Suite("route planner: traffic")
struct RouteTrafficTests {
    let drive = GridDrive()

    func plan(_ traffic: RouteTraffic) throws -> PlannedRoute {
        let planner = RoutePlanner(network: drive.network, traffic: traffic)
        let from = try drive.position(on: drive.link(0, 0, 0, 1)).point
        let to = try drive.position(on: drive.link(5, 4, 5, 5)).point
        return try planner.plan(from: from, to: to)
    }

    @Test("a delay adds exactly its seconds to the route that drives it, and shows in the breakdown")
    func delayAdds() throws {
        let free = try plan(RouteTraffic())
        let planner = RoutePlanner(network: drive.network, traffic: RouteTraffic(delays: [free.links[2]: 45]))
        let leg = try planner.leg(along: free.links, from: free.legs[0].from, to: free.legs[0].to)
        #expect(abs(leg.duration - (free.duration + 45)) < 1e-9)
        #expect(leg.breakdown.traffic == 45)
        #expect(free.trafficDelay == 0)
        let text = PlannedRoute(legs: [leg]).routeText
        #expect(text.contains("traffic 45 s"), "\(text)")
        #expect(!free.routeText.contains("traffic"), "no traffic part without traffic")
    }

    @Test("a closed link is avoided; a closed destination link is unreachable, with the leg named")
    func closures() throws {
        let free = try plan(RouteTraffic())
        var closure = RouteTraffic()
        closure.close(free.links[2].link)
        let detour = try plan(closure)
        #expect(!detour.links.contains { $0.link == free.links[2].link })
        #expect(detour.duration >= free.duration)
        closure.close(try #require(free.links.last).link)
        #expect(throws: RoutingError.self) { try plan(closure) }
        do {
            _ = try plan(closure)
        } catch RoutingError.unreachable(let leg, _, _) {
            #expect(leg == 1)
        }
    }
}

@Suite("route planner: candidate links")
struct CandidateLinkTests {
    @Test(
        "a point nearest a one-way stub with no way out starts on the next nearest link; with one candidate it is unreachable"
    )
    func nextCandidate() throws {
        var none: SplitMix64? = nil
        let grid = GridNetwork(size: 4, generator: &none)
        // A one-way stub from junction (0,0) southwards into a dead end: a route can enter it but never leave.
        let stub = RoadLink(
            id: LinkID(9_999), wayID: 9_999, startNode: grid.node(row: 0, column: 0), endNode: NodeID(99_999),
            geometry: [
                GridNetwork.position(row: 0, column: 0),
                GeoPoint(latitude: GridNetwork.origin.latitude - 0.001, longitude: GridNetwork.origin.longitude),
            ],
            highway: .service, oneway: .forward)
        let network = InMemoryRoadNetwork(links: grid.links + [stub])
        // 20 m south of (0,0), 2 m east of the stub: the stub is nearest, the grid street 20 m away.
        let origin = GeoPoint(
            latitude: GridNetwork.origin.latitude - 20 / 111_320,
            longitude: GridNetwork.origin.longitude + 2 / (111_320 * 0.4962))
        let destination = GridNetwork.position(row: 3, column: 2)
        #expect(try RouteEndpoint.place(origin, in: network).link == stub.id)
        let route = try RoutePlanner(network: network).plan(from: origin, to: destination)
        #expect(route.links.first?.link != stub.id)
        #expect(route.legs[0].from.distance > 15 && route.legs[0].from.distance < 25)
        #expect(throws: RoutingError.self) {
            try RoutePlanner(network: network, candidateLinks: 1).plan(from: origin, to: destination)
        }
        // As a destination the stub is reachable: the nearest link is kept.
        #expect(try RoutePlanner(network: network).plan(from: destination, to: origin).links.last?.link == stub.id)
        // Candidates: nearest first, none more than 50 m farther than the nearest.
        let candidates = try RouteEndpoint.candidates(origin, in: network, limit: 10)
        #expect(candidates.map(\.distance) == candidates.map(\.distance).sorted())
        #expect(candidates.allSatisfy { $0.distance <= candidates[0].distance + 50 })
    }
}

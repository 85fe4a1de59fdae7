import RoadMap
import TestSupport
import Testing
@testable import Routing

/// A 6 × 6 grid with a vehicle driving it: positions on directed links at chosen offsets.
struct GridDrive {
    let grid: GridNetwork
    let network: InMemoryRoadNetwork

    init(size: Int = 6) {
        var none: SplitMix64? = nil
        grid = GridNetwork(size: size, generator: &none)
        network = grid.network
    }

    /// The directed link from junction (r1, c1) to the adjacent junction (r2, c2).
    func link(_ r1: Int, _ c1: Int, _ r2: Int, _ c2: Int) -> DirectedLink {
        let a = grid.node(row: r1, column: c1), b = grid.node(row: r2, column: c2)
        let link = grid.links.first {
            ($0.startNode == a && $0.endNode == b) || ($0.startNode == b && $0.endNode == a)
        }!
        return DirectedLink(link.id, link.startNode == a ? .forward : .backward)
    }

    func position(on directed: DirectedLink, at offset: Double = 50) throws -> RouteSession.VehiclePosition {
        let link = try network.link(directed.link)
        var geometry = link.geometry
        if directed.direction == .backward { geometry.reverse() }
        return RouteSession.VehiclePosition(
            link: directed, offset: offset, point: geometry.point(atOffset: offset)!.point)
    }
}

@Suite("route session: continuous replanning")
struct RouteSessionTests {
    let drive = GridDrive()

    /// A session with a route from the middle of (0,0)→(0,1) to the middle of (5,4)→(5,5).
    func session(_ configuration: RouteSessionConfiguration = RouteSessionConfiguration()) throws -> RouteSession {
        var session = RouteSession(planner: RoutePlanner(network: drive.network), configuration: configuration)
        let start = try drive.position(on: drive.link(0, 0, 0, 1))
        let destination = try drive.position(on: drive.link(5, 4, 5, 5)).point
        let events = try session.setDestination(destination, from: .vehicle(start), time: 0)
        #expect(events == [.routeAdded(id: 1, reason: .manual), .activeRouteChanged(id: 1, reason: .manual)])
        return session
    }

    @Test("leaving the route for two fixes replans from where the vehicle is: added, active changed, old removed")
    func deviationReplans() throws {
        var session = try session()
        let route = try #require(session.links)
        #expect(session.update(try drive.position(on: route[0], at: 80), time: 1).isEmpty)
        // Off the route: a link the route does not take, in the direction the vehicle drives it.
        let off = try #require([drive.link(0, 1, 0, 2), drive.link(0, 1, 1, 1)].first { !route.contains($0) })
        // 40 m along: beyond the 15 m in which a fix off the route counts as a matching slip.
        let first = session.update(try drive.position(on: off, at: 40), time: 2)
        #expect(first.isEmpty, "one fix off the route is not yet a deviation: \(first)")
        let second = session.update(try drive.position(on: off, at: 60), time: 3)
        #expect(
            second == [
                .deviated(id: 1, link: off), .routeAdded(id: 2, reason: .deviation),
                .activeRouteChanged(id: 2, reason: .deviation), .routeRemoved(id: 1, reason: .deviation),
            ])
        let replanned = try #require(session.links)
        #expect(replanned.first == off, "the new route starts on the vehicle's link, in its direction")
        #expect(replanned.last?.link == route.last?.link)
        // Back on the (new) route: nothing more happens.
        #expect(session.update(try drive.position(on: off, at: 80), time: 4).isEmpty)
    }

    @Test("deviation replanning none: the deviation is reported once and the route is kept")
    func noReplanning() throws {
        var session = try session(RouteSessionConfiguration(deviationReplanning: .none))
        let route = try #require(session.links)
        let off = try #require([drive.link(0, 1, 0, 2), drive.link(0, 1, 1, 1)].first { !route.contains($0) })
        var events: [RouteEvent] = []
        for time in 1...5 {
            events += session.update(try drive.position(on: off, at: Double(time) * 10), time: Double(time))
        }
        #expect(events == [.deviated(id: 1, link: off)])
        #expect(session.links == route)
    }

    @Test("a failed replan is retried after 1, 2, 4, 8, 10, 10 s (capped), and succeeds once a route exists")
    func retries() throws {
        var session = try session()
        // The vehicle drives into a dead end the map gives no way out of: a one-way stub.
        let stub = RoadLink(
            id: LinkID(9_999), wayID: 9_999, startNode: NodeID(1), endNode: NodeID(99_999),
            geometry: [
                GridNetwork.position(row: 0, column: 0),
                GeoPoint(latitude: GridNetwork.origin.latitude - 0.001, longitude: GridNetwork.origin.longitude),
            ],
            highway: .service, oneway: .forward)
        let trapped = InMemoryRoadNetwork(links: drive.grid.links + [stub])
        session.planner = RoutePlanner(network: trapped)
        let position = RouteSession.VehiclePosition(
            link: DirectedLink(stub.id, .forward), offset: 50,
            point: stub.geometry.point(atOffset: 50)!.point)
        var retries: [Double] = []
        var time = 1.0
        while time < 60 {
            for event in session.update(position, time: time) {
                if case .planningFailed(_, let retryAt) = event { retries.append(retryAt - time) }
            }
            time += 0.5
        }
        #expect(Array(retries.prefix(6)) == [1, 2, 4, 8, 10, 10], "\(retries)")
        #expect(session.active?.id == 1, "the old route stays while no new one can be planned")
        #expect(RetryPolicy(initialDelay: 0.5, factor: 3, maximumDelay: 4).delay(afterFailures: 3) == 4)
    }

    @Test("the remaining time is refreshed every replan interval while on the route; never with updates off")
    func refresh() throws {
        var session = try session(RouteSessionConfiguration(replanInterval: 10))
        let route = try #require(session.links)
        var refreshes: [Double] = []
        for step in 0..<25 {
            let time = Double(step)
            for event in session.update(
                try drive.position(on: route[min(step / 8, route.count - 2)], at: Double(step % 8) * 10), time: time)
            {
                if case .routeUpdated(1, .refresh, let remaining, _) = event { refreshes.append(remaining) }
            }
        }
        #expect(refreshes.count == 2, "\(refreshes)")
        #expect(refreshes[1] < refreshes[0], "the remaining time shrinks as the vehicle advances")
        var quiet = try self.session(RouteSessionConfiguration(routeUpdates: false, replanInterval: 10))
        let updates = try (0..<25).flatMap { quiet.update(try drive.position(on: route[0], at: 1), time: Double($0)) }
        #expect(updates.isEmpty)
    }

    @Test("arriving at the destination ends the route")
    func arrival() throws {
        var session = try session()
        let route = try #require(session.links)
        for (index, link) in route.enumerated() {
            let events = session.update(
                try drive.position(on: link, at: index == route.count - 1 ? 60 : 50), time: Double(index))
            if index == route.count - 1 {
                #expect(events == [.arrived(id: 1), .routeRemoved(id: 1, reason: .arrival)])
            }
        }
        #expect(session.links == nil)
    }

    @Test("an imported route is rejoined beyond the cutoff after a deviation, not at the nearest point")
    func importedRouteRejoin() throws {
        // Along the top row from (0,0) to (0,5), then down to (5,5): 1 000 m of imported route.
        var links = (0..<5).map { drive.link(0, $0, 0, $0 + 1) }
        links += (0..<5).map { drive.link($0, 5, $0 + 1, 5) }
        var session = RouteSession(
            planner: RoutePlanner(network: drive.network),
            configuration: RouteSessionConfiguration(rejoinCutoff: 300))
        _ = session.importRoute(links, time: 0)
        _ = session.update(try drive.position(on: links[0]), time: 1)
        let off = drive.link(0, 1, 1, 1)
        _ = session.update(try drive.position(on: off, at: 40), time: 2)
        let events = session.update(try drive.position(on: off, at: 60), time: 3)
        #expect(events.contains(.activeRouteChanged(id: 2, reason: .deviation)))
        let rejoined = try #require(session.links)
        #expect(rejoined.first == off)
        // Everything from the rejoin link on is the imported route, and it rejoins at least
        // 300 m beyond where the vehicle left it (the end of links[0]): links[4] or later.
        let join = try #require(rejoined.firstIndex { links.contains($0) })
        #expect(Array(rejoined[join...]) == Array(links[links.firstIndex(of: rejoined[join])!...]))
        #expect(links.firstIndex(of: rejoined[join])! >= 4, "rejoined at \(rejoined[join])")
    }
}

@Suite("route session: route tracking")
struct RouteTrackingTests {
    let drive = GridDrive()

    @Test("fixes matched off the route but within 15 m of it are slips: no deviation, and snapped onto the route")
    func slipsAreNotDeviations() throws {
        var session = RouteSession(planner: RoutePlanner(network: drive.network))
        let start = try drive.position(on: drive.link(0, 0, 0, 1))
        _ = try session.setDestination(
            try drive.position(on: drive.link(5, 4, 5, 5)).point, from: .vehicle(start), time: 0)
        let route = try #require(session.links)
        #expect(session.update(try drive.position(on: route[0], at: 90), time: 1).isEmpty)
        let off = try #require([drive.link(0, 1, 0, 2), drive.link(0, 1, 1, 1)].first { !route.contains($0) })
        // Five fixes up to 14 m along a side street at the route's junction: slips.
        for (step, offset) in [3.0, 6, 9, 12, 14].enumerated() {
            let position = try drive.position(on: off, at: offset)
            #expect(session.update(position, time: 2 + Double(step)).isEmpty, "at \(offset) m")
            let snapped = try #require(session.snapped(position), "within 15 m of the route")
            #expect(route.contains(snapped.link))
            #expect(snapped.point.distance(to: position.point) <= 15)
        }
        #expect(session.snapped(try drive.position(on: route[1], at: 30)) == nil, "on the route: nothing to snap")
        // Further along it: a deviation after two fixes, as without the slips.
        #expect(session.snapped(try drive.position(on: off, at: 40)) == nil)
        #expect(session.update(try drive.position(on: off, at: 40), time: 8).isEmpty)
        #expect(session.update(try drive.position(on: off, at: 60), time: 9).first == .deviated(id: 1, link: off))
        // With the check off, the first two fixes off the route already deviate.
        var strict = RouteSession(
            planner: RoutePlanner(network: drive.network),
            configuration: RouteSessionConfiguration(offRouteDistance: 0))
        _ = try strict.setDestination(
            try drive.position(on: drive.link(5, 4, 5, 5)).point, from: .vehicle(start), time: 0)
        _ = strict.update(try drive.position(on: off, at: 4), time: 1)
        #expect(strict.update(try drive.position(on: off, at: 8), time: 2).first == .deviated(id: 1, link: off))
    }
}

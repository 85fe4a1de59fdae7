import DaemonConfiguration
import GNSS
import GNSSSources
import RoadMap
import RouteBus
import Routing
import Testing
@testable import HorizonDaemon

/// The street's point `x` metres east and `y` metres north of its start.
private func streetPoint(x: Double, y: Double = 0) -> GeoPoint {
    LocalProjection(origin: GeoPoint(latitude: 60.17, longitude: 24.94)).unproject(x: x, y: y)
}

/// A fix at receiver second `second` at `point`, driving at 10 m/s with `heading`.
private func fix(_ second: Double, at point: GeoPoint, heading: Double) -> FixInbox.Arrival {
    .init(
        fix: GNSSFix(
            time: 1000 + second, latitude: point.latitude, longitude: point.longitude, horizontalAccuracy: 3,
            speed: 10, heading: heading),
        receivedAt: second + 0.1)
}

/// The route signals among `effects`.
private func routeEvents(_ effects: [DaemonEffect]) -> [RouteEvent] {
    effects.compactMap { if case .route(let event, _) = $0 { event } else { nil } }
}

/// Route calls on the street: the core answers, the engine follows, a refusal changes nothing.
@Suite("daemon core: route requests")
struct DaemonRouteTests {
    /// A core that has driven the street's first 4 s (to x = 35 m, on link 1 going east).
    static func drivenCore(_ extra: String = "") throws -> SimulatedRunLoop {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(extra), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 3.5)
        return loop
    }

    @Test("before any fix a destination is refused with NoPosition, and nothing changes")
    func noPosition() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        let (result, effects) = loop.core.handle(.setDestination(streetPoint(x: 2450), via: []), at: 0.5)
        guard case .failure(let error) = result else {
            Issue.record("accepted without a position")
            return
        }
        #expect(error.kind == .noPosition && error.name == "org.adasis.Horizon1.Error.NoPosition")
        #expect(routeEvents(effects).isEmpty)
        #expect(loop.core.routes.active == nil)
    }

    @Test("SetDestination plans from the vehicle: the engine's main path follows it, the signals say so")
    func setDestination() throws {
        var loop = try Self.drivenCore()
        let (result, effects) = loop.core.handle(.setDestination(streetPoint(x: 2450), via: []), at: 3.6)
        #expect(try result.get() == .activeRoute(id: 1))
        #expect(
            routeEvents(effects) == [.routeAdded(id: 1, reason: .manual), .activeRouteChanged(id: 1, reason: .manual)])
        let expected = (1...25).map { DirectedLink(LinkID(UInt64($0)), .forward) }
        #expect(loop.core.routes.links == expected)
        #expect(loop.core.pipeline.engine.route == expected)

        // GetRoute: what is left from the vehicle (x ≈ 35 m) to x = 2450 m, at 50 km/h.
        guard case .route(let route) = try loop.core.handle(.getRoute, at: 3.7).result.get() else {
            Issue.record("GetRoute gave no route")
            return
        }
        #expect(route.id == 1 && route.links == expected && route.legs.count == 1)
        #expect(abs(route.length - 2415) < 15, "length \(route.length)")
        #expect(route.duration >= route.length / (50 / 3.6) && route.duration < 300, "duration \(route.duration)")

        // The drive goes on along the route: no further route events.
        loop.run(from: 3.7, to: 8)
        #expect(loop.core.routes.active?.id == 1)
    }

    @Test("a point off the map, an invalid coordinate, unknown or disconnected links are refused; the route stays")
    func refusals() throws {
        var loop = try Self.drivenCore()
        _ = loop.core.handle(.setDestination(streetPoint(x: 2450), via: []), at: 3.6)
        let before = loop.core.routes.links
        let cases: [(RouteRequest, RouteRequestError.Kind)] = [
            (.setDestination(GeoPoint(latitude: 61.5, longitude: 23.8), via: []), .noRoadNear),
            (.setDestination(streetPoint(x: 1000), via: [GeoPoint(latitude: 95, longitude: 24.9)]), .invalidCoordinate),
            (.setRouteLinks([DirectedLink(LinkID(1), .forward), DirectedLink(LinkID(999), .forward)]), .unknownLink),
            (.setRouteLinks([DirectedLink(LinkID(1), .forward), DirectedLink(LinkID(3), .forward)]), .disconnected),
            (.setRouteLinks([]), .invalidArguments),
            (.setRouteCoordinates([streetPoint(x: 100)]), .invalidArguments),
            (.setRouteCoordinates([streetPoint(x: 100), GeoPoint(latitude: 61.5, longitude: 23.8)]), .noRoadNear),
        ]
        for (request, kind) in cases {
            let (result, effects) = loop.core.handle(request, at: 3.7)
            guard case .failure(let error) = result else {
                Issue.record("\(request) was accepted")
                continue
            }
            #expect(error.kind == kind, "\(request): \(error)")
            #expect(error.name == "org.adasis.Horizon1.Error.\(kind.rawValue)" && !error.message.isEmpty)
            #expect(routeEvents(effects).isEmpty)
            #expect(loop.core.routes.links == before && loop.core.pipeline.engine.route == before)
        }
    }

    @Test("SetRouteLinks and SetRouteCoordinates import a route; ClearRoute drops it and the engine's with it")
    func importAndClear() throws {
        var loop = try Self.drivenCore()
        let links = (1...6).map { DirectedLink(LinkID(UInt64($0)), .forward) } + [DirectedLink(LinkID(106), .forward)]
        #expect(try loop.core.handle(.setRouteLinks(links), at: 3.6).result.get() == .activeRoute(id: 1))
        #expect(loop.core.pipeline.engine.route == links)

        let shaped = loop.core.handle(.setRouteCoordinates([streetPoint(x: 50), streetPoint(x: 1250)]), at: 3.7)
        #expect(try shaped.result.get() == .activeRoute(id: 2))
        #expect(routeEvents(shaped.effects).contains(.routeRemoved(id: 1, reason: .manual)))
        #expect(loop.core.pipeline.engine.route == (1...13).map { DirectedLink(LinkID(UInt64($0)), .forward) })

        let cleared = loop.core.handle(.clearRoute, at: 3.8)
        #expect(try cleared.result.get() == .done)
        #expect(routeEvents(cleared.effects) == [.routeRemoved(id: 2, reason: .manual)])
        #expect(loop.core.routes.active == nil && loop.core.pipeline.engine.route == nil)
        guard case .failure(let error) = loop.core.handle(.getRoute, at: 3.9).result else {
            Issue.record("GetRoute without a route succeeded")
            return
        }
        #expect(error.kind == .noRoute)
    }

    @Test("a drive that turns off the route is replanned from where it is (deviation), and the engine follows")
    func deviation() throws {
        var loop = try Self.drivenCore()
        _ = loop.core.handle(.setDestination(streetPoint(x: 2450), via: []), at: 3.6)
        // East to the junction at x = 300 m, then north up the side road 103.
        for second in 4...6 {
            loop.perform(
                loop.core.receive(fix(Double(second), at: streetPoint(x: 5 + Double(second) * 10 + 200), heading: 90)))
        }
        var effects: [DaemonEffect] = []
        for (index, y) in [15.0, 30, 45, 60, 75].enumerated() {
            effects += loop.core.receive(fix(Double(7 + index), at: streetPoint(x: 300, y: y), heading: 0))
        }
        let events = routeEvents(effects)
        #expect(events.contains(.deviated(id: 1, link: DirectedLink(LinkID(103), .forward))), "\(events)")
        #expect(events.contains(.activeRouteChanged(id: 2, reason: .deviation)), "\(events)")
        let route = try #require(loop.core.routes.links)
        #expect(route.first == DirectedLink(LinkID(103), .forward))
        #expect(route.last == DirectedLink(LinkID(25), .forward))
        #expect(loop.core.pipeline.engine.route == route)
    }

    @Test("with deviation_replanning = \"none\" the route is kept when the vehicle leaves it")
    func deviationNone() throws {
        var loop = try Self.drivenCore("[routing]\ndeviation_replanning = \"none\"\n")
        _ = loop.core.handle(.setDestination(streetPoint(x: 2450), via: []), at: 3.6)
        var effects: [DaemonEffect] = []
        for (index, y) in [15.0, 30, 45, 60, 75].enumerated() {
            effects += loop.core.receive(fix(Double(4 + index), at: streetPoint(x: 100, y: y), heading: 0))
        }
        #expect(routeEvents(effects).contains { if case .deviated = $0 { true } else { false } })
        #expect(!routeEvents(effects).contains { if case .activeRouteChanged = $0 { true } else { false } })
        #expect(loop.core.routes.active?.id == 1)
    }

    @Test("a reload onto a new map keeps the destination and plans it again there")
    func reloadKeepsDestination() throws {
        var loop = try Self.drivenCore()
        _ = loop.core.handle(.setDestination(streetPoint(x: 2450), via: []), at: 3.6)
        let newMap = street()
        let effects = loop.core.reload(
            try daemonConfiguration(), newMap: (newMap, streetMetadata), gnss: .init(connected: true))
        let events = routeEvents(effects)
        #expect(events.contains(.activeRouteChanged(id: 2, reason: .manual)), "\(events)")
        #expect(events.contains(.routeRemoved(id: 1, reason: .manual)), "\(events)")
        #expect(loop.core.routes.active?.id == 2 && loop.core.routes.planner.network === newMap)
        #expect(loop.core.routes.links?.last == DirectedLink(LinkID(25), .forward))
        #expect(loop.core.pipeline.engine.route == loop.core.routes.links)
    }
}

/// Better-route proposals with manual acceptance, on the street with a bypass south of it.
@Suite("daemon core: route proposals")
struct DaemonProposalTests {
    /// The street, and link 300 from junction 5 (x = 500 m) to junction 10 (x = 1000 m) through
    /// (500, −100) and (1000, −100): 700 m against the street's 500 m.
    static func streetWithBypass() -> InMemoryRoadNetwork {
        var links = (1...30).flatMap { id in
            [UInt64(id), UInt64(100 + id)].compactMap { try? street().link(LinkID($0)) }
        }
        let points = [(500.0, 0.0), (500, -100), (1000, -100), (1000, 0)].map { streetPoint(x: $0.0, y: $0.1) }
        links.append(
            RoadLink(
                id: LinkID(300), wayID: 300, startNode: NodeID(5), endNode: NodeID(10), geometry: points,
                highway: .secondary, name: "Bypass",
                forward: DirectionalAttributes(speedLimit: SpeedLimit(value: .kilometresPerHour(50), kind: .explicit))))
        return InMemoryRoadNetwork(links: links)
    }

    @Test("a proposal is signalled; AcceptProposal makes it the route the engine follows, RejectProposal drops it")
    func acceptAndReject() throws {
        for accept in [true, false] {
            let configuration = try daemonConfiguration(
                "[routing]\nacceptance = \"manual\"\nmin_time_difference_s = 10\nreplan_interval_s = 10\n")
            var core = try DaemonCore(
                configuration: configuration, path: "test.toml", map: Self.streetWithBypass(),
                metadata: streetMetadata, watchdogInterval: nil, at: 0)
            for second in 0...2 {
                _ = core.receive(fix(Double(second), at: streetPoint(x: 5 + Double(second) * 10), heading: 90))
            }
            let set = core.handle(.setDestination(streetPoint(x: 2450), via: []), at: 2.2)
            #expect(try set.result.get() == .activeRoute(id: 1))
            #expect(core.routes.links?.contains(DirectedLink(LinkID(300), .forward)) == false)
            // A jam on the street between junctions 6 and 9: the bypass saves minutes.
            let jam = Dictionary(
                uniqueKeysWithValues: (7...9).map { (DirectedLink(LinkID(UInt64($0)), .forward), 120.0) })
            core.routes.setTraffic(RouteTraffic(delays: jam))
            var effects: [DaemonEffect] = []
            for second in 3...14 {
                effects += core.receive(fix(Double(second), at: streetPoint(x: 5 + Double(second) * 10), heading: 90))
            }
            let proposed = routeEvents(effects).compactMap { event -> Int? in
                if case .routeProposed(let id, .betterRoute, let saved) = event, saved > 60 { id } else { nil }
            }
            let id = try #require(proposed.first, "\(routeEvents(effects))")
            #expect(core.routes.active?.id == 1, "manual acceptance keeps the route until the client decides")
            if accept {
                let (result, effects) = core.handle(.acceptProposal, at: 15)
                #expect(try result.get() == .activeRoute(id: id))
                #expect(routeEvents(effects).contains(.activeRouteChanged(id: id, reason: .manual)))
                #expect(core.routes.links?.contains(DirectedLink(LinkID(300), .forward)) == true)
                #expect(core.pipeline.engine.route == core.routes.links)
            } else {
                let (result, effects) = core.handle(.rejectProposal, at: 15)
                #expect(try result.get() == .done)
                #expect(routeEvents(effects) == [.routeRemoved(id: id, reason: .manual)])
                #expect(core.routes.active?.id == 1 && core.routes.proposal == nil)
            }
            guard case .failure(let error) = core.handle(.acceptProposal, at: 16).result else {
                Issue.record("a second decision on the same proposal was accepted")
                continue
            }
            #expect(error.kind == .noProposal)
        }
    }
}

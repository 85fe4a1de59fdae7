import Foundation
import GNSS
import Horizon
import RoadMap
import Routing
import TestSupport
import Testing
@testable import adasis

/// The route session on the sample map, driven by the navigated drives (Data/drives/navigated):
/// the matcher, the horizon engine and the route session as `adasis horizon --destination` runs them.
@Suite("route scenarios on the navigated drives", .serialized)
struct RouteScenarioTests {
    /// A drive's destination and, for one that leaves its route, when it turns off.
    struct Drive: Decodable {
        var name: String
        var destination: [Double]
        var deviation: Deviation?
        struct Deviation: Decodable {
            var time_s: Double
            var taken_link: String
        }
    }

    static func drive(_ name: String) throws -> Drive {
        struct Manifest: Decodable { var drives: [Drive] }
        let data = try Data(contentsOf: Repository.url("Data/drives/navigated/drives.json"))
        return try #require(try JSONDecoder().decode(Manifest.self, from: data).drives.first { $0.name == name })
    }

    /// The drive opened as `horizon --destination` opens it, on the noisy trace.
    static func open(_ drive: Drive) throws -> DriveSession {
        let options = try DriveOptions.parse([
            "--map", try GoldenFrameTests.mapPath.get(),
            "--destination", "\(drive.destination[0]),\(drive.destination[1])",
            Repository.url("Data/drives/navigated/\(drive.name)-noisy.csv").path,
        ])
        return try options.open()
    }

    /// One step: the fix matched, handed to the engine and the route session; `before` runs first
    /// (to change the traffic or the configuration at a given time).
    static func run(
        _ session: inout DriveSession, until end: Double = .infinity,
        before: (inout DriveSession, GNSSFix) throws -> Void = { _, _ in }
    ) throws -> [(time: Double, position: DirectedLink?, events: [RouteEvent])] {
        let engine = try session.makeEngine()
        var log: [(time: Double, position: DirectedLink?, events: [RouteEvent])] = []
        for fix in session.trace.fixes where fix.time <= end {
            try before(&session, fix)
            let match = try session.matcher.match(fix)
            _ = try engine.update(match)
            let events = try session.follow(match, engine: engine)
            if !events.isEmpty { log.append((fix.time, match.state.position?.link, events)) }
        }
        return log
    }

    @Test(
        "leaving the route: deviated, added, active changed, removed, in that order, soon after the turn; the new route starts on the vehicle's link and arrives"
    )
    func deviation() throws {
        let drive = try Self.drive("nav-kaisaniemi-bulevardi-deviation")
        let turn = try #require(drive.deviation)
        var session = try Self.open(drive)
        let log = try Self.run(&session)
        let deviations = log.filter { $0.events.contains { if case .deviated = $0 { true } else { false } } }
        #expect(deviations.count == 1, "only the real turn is a deviation: \(log.map(\.time))")
        let step = try #require(deviations.first)
        #expect(step.time >= turn.time_s && step.time <= turn.time_s + 10, "reported at \(step.time) s")
        let vehicle = try #require(step.position)
        #expect(
            step.events == [
                .deviated(id: 1, link: vehicle), .routeAdded(id: 2, reason: .deviation),
                .activeRouteChanged(id: 2, reason: .deviation), .routeRemoved(id: 1, reason: .deviation),
            ])
        #expect(log.last?.events == [.arrived(id: 2), .routeRemoved(id: 2, reason: .arrival)])
        // Replayed up to the deviation, the new route starts on the link the vehicle is matched to.
        var again = try Self.open(drive)
        _ = try Self.run(&again, until: step.time)
        #expect(again.routes?.links?.first == vehicle)
        #expect(again.routes?.active?.id == 2)
    }

    @Test(
        "a blockage ahead, manual acceptance: the way round is proposed; the driver stays on the route and it is withdrawn"
    )
    func proposalWithdrawnBySteering() throws {
        let drive = try Self.drive("nav-diagonal")
        var session = try Self.open(drive)
        session.routes?.configuration.acceptance = .manual
        let route = try #require(session.routes?.links)
        // At 60 s, a delay of 20 min on a link 10 links ahead on the route.
        let log = try Self.run(&session) { session, fix in
            guard fix.time == 60, var routes = session.routes, let active = routes.active else { return }
            routes.setTraffic(RouteTraffic(delays: [route[min(active.progress + 10, route.count - 2)]: 1200]))
            session.routes = routes
        }
        let proposed = try #require(
            log.first { $0.events.contains { if case .routeProposed = $0 { true } else { false } } })
        #expect(proposed.time == 60)
        guard case .routeProposed(2, .betterRoute, let saved) = proposed.events.last else {
            Issue.record("\(proposed.events)")
            return
        }
        #expect(saved > 600, "the way round saves most of the 20 min: \(saved) s")
        // The SUMO car keeps to the planned route: past the turn-off the proposal goes.
        let withdrawn = try #require(log.first { $0.events.contains(.routeRemoved(id: 2, reason: .manual)) })
        #expect(withdrawn.time > 60)
        #expect(!log.contains { $0.events.contains { if case .deviated = $0 { true } else { false } } })
        #expect(log.last?.events == [.arrived(id: 1), .routeRemoved(id: 1, reason: .arrival)])
    }

    @Test("automatic acceptance: the faster route replaces the active one at once (better route)")
    func automaticBetterRoute() throws {
        let drive = try Self.drive("nav-diagonal")
        var session = try Self.open(drive)
        let route = try #require(session.routes?.links)
        let log = try Self.run(&session, until: 61) { session, fix in
            guard fix.time == 60, var routes = session.routes, let active = routes.active else { return }
            routes.setTraffic(RouteTraffic(delays: [route[min(active.progress + 10, route.count - 2)]: 1200]))
            session.routes = routes
        }
        let changed = try #require(log.last)
        #expect(changed.time == 60)
        #expect(
            Array(changed.events.dropFirst()) == [
                .routeAdded(id: 2, reason: .betterRoute), .activeRouteChanged(id: 2, reason: .betterRoute),
                .routeRemoved(id: 1, reason: .betterRoute),
            ])
        #expect(session.routes?.links?.first == changed.position)
    }

    @Test("decide by steering on the map: proposed at the junction before the turn, taken by turning")
    func proposalTakenBySteering() throws {
        let drive = try Self.drive("nav-kaisaniemi-bulevardi-deviation")
        let turn = try #require(drive.deviation)
        var session = try Self.open(drive)
        session.routes?.configuration.acceptance = .manual
        // On the link before the junction where the driver turns off: the route's next link closes.
        var closedAt: Double?
        let log = try Self.run(&session) { session, fix in
            guard closedAt == nil, var routes = session.routes,
                let active = routes.active
            else { return }
            let taken = turn.taken_link
            // The route link the driver would have taken instead: the one after the turn junction.
            let links = active.links
            guard
                let index = [active.progress].first(where: { index in
                    index + 1 < links.count
                        && (try? session.map.successors(of: links[index]))?.contains {
                            "\($0)" == taken
                        } == true
                })
            else { return }
            var traffic = RouteTraffic()
            traffic.close(links[index + 1].link)
            routes.setTraffic(traffic)
            session.routes = routes
            closedAt = fix.time
        }
        let proposed = try #require(
            log.first { $0.events.contains { if case .routeProposed = $0 { true } else { false } } })
        #expect(proposed.events.contains(.routeAdded(id: 2, reason: .avoidBlockage)))
        let taken = try #require(log.first { $0.events.contains(.activeRouteChanged(id: 2, reason: .avoidBlockage)) })
        #expect(
            taken.events == [
                .activeRouteChanged(id: 2, reason: .avoidBlockage), .routeRemoved(id: 1, reason: .avoidBlockage),
            ])
        // From the fix at the junction on: at 102 s the car, mid-turn (course 154 → 142°), is matched
        // 0.5 m into the street it turns into, a fix before the truth names that street.
        #expect(
            taken.time >= turn.time_s - 1 && taken.time <= turn.time_s + 10, "taken \(taken.time) turn \(turn.time_s)")
        // Taken by turning, not replanned after a deviation. (Later the simulated car, which knows
        // nothing of the closure, drives on through the closed street's continuation and deviates.)
        #expect(
            !log.contains {
                $0.time <= taken.time && $0.events.contains { if case .deviated = $0 { true } else { false } }
            })
        #expect(taken.time > proposed.time)
    }
}

import ADASISv2
import DaemonConfiguration
import Foundation
import GNSS
import GNSSSources
import RoadMap
import Routing
import Testing
@testable import HorizonDaemon

/// The street's point `x` metres east and `y` metres north of its start.
private func point(x: Double, y: Double = 0) -> GeoPoint {
    LocalProjection(origin: GeoPoint(latitude: 60.17, longitude: 24.94)).unproject(x: x, y: y)
}

/// The fix at receiver second 1000 + `second`, driving east along the street at 10 m/s.
private func arrival(_ second: Double) -> FixInbox.Arrival {
    .init(fix: streetFix(second), receivedAt: second + 0.1)
}

/// A traffic feed of Docs/traffic-feed.md made at receiver second `generated` (the receiver's
/// clock starts at 1000 s: 1970-01-01T00:16:40Z), valid for `valid` seconds.
func streetFeed(
    model: String, flow: String = "[]", incidents: String = "[]", generated: Double = 1000, valid: Double = 600
) -> Data {
    let format = ISO8601DateFormatter()
    let made = format.string(from: Date(timeIntervalSince1970: generated))
    let until = format.string(from: Date(timeIntervalSince1970: generated + valid))
    return Data(
        """
        {"trafficModelId": "\(model)", "generatedAt": "\(made)", "validUntil": "\(until)",
         "flowSegments": \(flow), "incidents": \(incidents)}
        """.utf8)
}

/// A jam on the street from junction 6 to junction 9 (links 7, 8, 9): 3 km/h against 50.
let streetJam = #"[{"links": ["L7+", "L8+", "L9+"], "currentSpeed": 3, "freeFlowSpeed": 50}]"#

/// The route signals among `effects`.
private func routeSignals(_ effects: [DaemonEffect]) -> [RouteEvent] {
    effects.compactMap { if case .route(let event, _) = $0 { event } else { nil } }
}

/// The traffic feed in the daemon core, on the street with a bypass (link 300, junction 5 to 10):
/// its delays and closures drive the route session's replanning modes; bad feeds change nothing.
@Suite("daemon core: traffic feed")
struct DaemonTrafficTests {
    /// A core on the street with a bypass, driven 3 s, with a route to x = 2450 m along the street.
    static func routedCore(_ routing: String) throws -> DaemonCore {
        let configuration = try daemonConfiguration("[routing]\nreplan_interval_s = 10\n" + routing)
        var core = try DaemonCore(
            configuration: configuration, path: "test.toml", map: DaemonProposalTests.streetWithBypass(),
            metadata: streetMetadata, watchdogInterval: nil, at: 0)
        for second in 0...2 { _ = core.receive(arrival(Double(second))) }
        #expect(try core.handle(.setDestination(point(x: 2450), via: []), at: 2.2).result.get() == .activeRoute(id: 1))
        #expect(core.routes.links?.contains(DirectedLink(LinkID(300), .forward)) == false)
        return core
    }

    /// Takes `feed` at 2.3 s (the feed is acted on at once, with the last fix), then drives from
    /// second 3 to `last`; returns the route signals of both.
    static func take(_ feed: Data, _ core: inout DaemonCore, driving last: Int) -> [RouteEvent] {
        let (outcome, effects) = core.takeTrafficFeed(feed, source: "feed.json", at: 2.3)
        #expect(outcome == .applied)
        return routeSignals(effects) + (3...last).flatMap { routeSignals(core.receive(arrival(Double($0)))) }
    }

    static let bypass = DirectedLink(LinkID(300), .forward)

    @Test("manual acceptance: a jam over min_traffic_delay_s proposes the bypass; the route stays until decided")
    func manualProposal() throws {
        // min_time_difference_s is out of reach: only the traffic-delay rule can find the bypass better.
        var core = try Self.routedCore(
            "acceptance = \"manual\"\nmin_time_difference_s = 3600\nmin_traffic_delay_s = 120\n")
        let signals = Self.take(streetFeed(model: "m1", flow: streetJam), &core, driving: 6)
        let proposed = signals.compactMap { event -> Int? in
            if case .routeProposed(let id, .betterRoute, let saved) = event, saved > 0 { id } else { nil }
        }
        #expect(proposed.count == 1, "\(signals)")
        #expect(core.routes.active?.id == 1)
        #expect(core.routes.proposal?.links.contains(Self.bypass) == true)
    }

    @Test("automatic acceptance: the same jam switches the active route to the bypass, and the horizon follows")
    func automaticSwitch() throws {
        var core = try Self.routedCore("min_time_difference_s = 3600\nmin_traffic_delay_s = 120\n")
        let signals = Self.take(streetFeed(model: "m1", flow: streetJam), &core, driving: 6)
        #expect(signals.contains { if case .activeRouteChanged(_, .betterRoute) = $0 { true } else { false } })
        #expect(core.routes.links?.contains(Self.bypass) == true)
        #expect(core.pipeline.engine.route == core.routes.links)
    }

    @Test("unreachable-only acceptance: a jam is only proposed, a closure ahead switches round it (avoid blockage)")
    func unreachableOnly() throws {
        let routing = "acceptance = \"unreachable_only\"\nmin_time_difference_s = 3600\nmin_traffic_delay_s = 120\n"
        var jammed = try Self.routedCore(routing)
        let proposals = Self.take(streetFeed(model: "m1", flow: streetJam), &jammed, driving: 6)
        #expect(proposals.contains { if case .routeProposed(_, .betterRoute, _) = $0 { true } else { false } })
        #expect(jammed.routes.active?.id == 1)

        var closed = try Self.routedCore(routing)
        let closure = #"[{"id": "works-8", "iconCategory": 8, "roadClosed": true, "links": ["L8+"]}]"#
        let signals = Self.take(streetFeed(model: "m2", incidents: closure), &closed, driving: 6)
        #expect(signals.contains { if case .activeRouteChanged(_, .avoidBlockage) = $0 { true } else { false } })
        #expect(closed.routes.links?.contains(Self.bypass) == true)
        #expect(closed.routes.links?.contains(DirectedLink(LinkID(8), .forward)) == false)
    }

    @Test("bad feeds change nothing: truncated, invalid OpenLR, off the map, a lying clock, expired")
    func badFeeds() throws {
        var core = try Self.routedCore("min_time_difference_s = 3600\nmin_traffic_delay_s = 120\n")
        #expect(
            core.takeTrafficFeed(streetFeed(model: "good", flow: streetJam), source: "f", at: 2.3).outcome == .applied)
        let before = core.routes.planner.traffic
        #expect(!before.delays.isEmpty)
        let good = streetFeed(model: "good", flow: streetJam)
        let bad: [(String, Data)] = [
            ("malformed_json", good.prefix(good.count / 2)),
            (
                "nothing_on_map",
                streetFeed(model: "b1", flow: #"[{"openlr": "CwRbWyNG9Rps", "currentSpeed": 5, "freeFlowSpeed": 50}]"#)
            ),
            (
                "nothing_on_map",
                streetFeed(
                    model: "b2",
                    incidents: #"[{"id": "far", "iconCategory": 8, "roadClosed": true, "links": ["L999+"]}]"#)
            ),
            ("clock", streetFeed(model: "b3", flow: streetJam, generated: 5000)),
            ("expired", streetFeed(model: "b4", flow: streetJam, generated: 100, valid: 60)),
        ]
        for (reason, data) in bad {
            let (outcome, effects) = core.takeTrafficFeed(data, source: "f", at: 2.5)
            #expect(outcome == .refused, "\(reason)")
            #expect(
                effects.contains {
                    if case .log(.warning, let line) = $0 { line.contains("keeping traffic model good") } else { false }
                })
            #expect(core.routes.planner.traffic == before, "\(reason) changed the traffic")
        }
        let metrics = core.snapshot(at: 3, gnss: .init(connected: true))
        #expect(metrics.trafficFeedsApplied == 1)
        #expect(metrics.trafficFeedsRefused == ["malformed_json": 1, "nothing_on_map": 2, "clock": 1, "expired": 1])
        #expect(metrics.prometheusText.contains("adasis_traffic_feeds_refused_total{reason=\"clock\"} 1"))
    }

    @Test("a feed before the first fix waits for the receiver's time; an expired feed is dropped at its end")
    func timeOfTheFeed() throws {
        var core = try DaemonCore(
            configuration: try daemonConfiguration(), path: "test.toml", map: street(), metadata: streetMetadata,
            watchdogInterval: nil, at: 0)
        #expect(
            core.takeTrafficFeed(streetFeed(model: "m", flow: streetJam), source: "f", at: 0).outcome == .waitingForTime
        )
        _ = core.receive(arrival(0))
        #expect(
            core.takeTrafficFeed(streetFeed(model: "m", flow: streetJam, valid: 10), source: "f", at: 0.2).outcome
                == .applied)
        #expect(
            core.takeTrafficFeed(streetFeed(model: "m", flow: streetJam, valid: 10), source: "f", at: 0.3).outcome
                == .unchanged)
        #expect(core.snapshot(at: 1, gnss: .init(connected: true)).trafficObjects == 1)
        let effects = core.wake(at: 11, gnss: .init(connected: true))
        #expect(effects.contains { if case .log(.warning, let line) = $0 { line.contains("expired") } else { false } })
        #expect(core.routes.planner.traffic == RouteTraffic())
        #expect(core.snapshot(at: 11, gnss: .init(connected: true)).trafficObjects == 0)
    }
}

extension DaemonTrafficTests {
    @Test("a reload keeps the running traffic while [traffic] names a feed, and drops it when the section goes")
    func reload() throws {
        let withFeed = try daemonConfiguration("[traffic]\nfeed = \"/run/traffic.json\"\n")
        var core = try DaemonCore(
            configuration: withFeed, path: "test.toml", map: street(), metadata: streetMetadata,
            watchdogInterval: nil, at: 0)
        _ = core.receive(arrival(0))
        #expect(core.takeTrafficFeed(streetFeed(model: "m", flow: streetJam), source: "f", at: 0.2).outcome == .applied)
        _ = core.reload(withFeed, newMap: nil, gnss: .init(connected: true))
        #expect(core.snapshot(at: 1, gnss: .init(connected: true)).trafficObjects == 1)
        #expect(!core.routes.planner.traffic.delays.isEmpty)
        let effects = core.reload(try daemonConfiguration(), newMap: nil, gnss: .init(connected: true))
        #expect(effects.contains { if case .log(_, let line) = $0 { line.contains("traffic dropped") } else { false } })
        #expect(core.snapshot(at: 1, gnss: .init(connected: true)).trafficObjects == 0)
        #expect(core.routes.planner.traffic == RouteTraffic())
    }
}

/// Incidents and congestion from the feed on CAN: PROFILE SHORT 19/20 zones with the type codes of
/// Docs/adasis-conventions.md, rebuilt by the reconstructor where the links lie.
@Suite("daemon core: traffic objects on CAN")
struct DaemonTrafficCANTests {
    @Test("an incident (13) and a congested stretch (15, Value1 = the traffic speed) go out and are rebuilt")
    func objectsOnCAN() throws {
        let sink = RecordingFrameSink()
        var loop = try SimulatedRunLoop(
            try daemonConfiguration("[messages]\npreset = \"all\"\n"), opener: ScriptedOpener([.success(sink)]))
        loop.run(from: 0, to: 2.5)
        let incident = #"[{"id": "crash-8", "iconCategory": 1, "delay": 120, "links": ["L8+"]}]"#
        let flow = #"[{"links": ["L12+", "L13+"], "currentSpeed": 12, "freeFlowSpeed": 50}]"#
        let (outcome, effects) = loop.core.takeTrafficFeed(
            streetFeed(model: "m", flow: flow, incidents: incident), source: "feed.json", at: 2.6)
        #expect(outcome == .applied)
        loop.perform(effects)
        loop.run(from: 2.6, to: 6)

        var reconstructor = HorizonReconstructor()
        for frame in sink.accepted { try reconstructor.apply(payload: frame.data, time: 0) }
        let main = try #require(reconstructor.horizon.mainPath)
        let objects = main.objects
        let incidents = objects.filter { $0.code == 13 }
        let congestion = objects.filter { $0.code == 15 }
        #expect(incidents.count == 1 && congestion.count == 1, "\(objects)")
        // Link 8 is x = 700…800 m, links 12–13 x = 1100…1300 m; the vehicle started at x = 5 m.
        if let object = incidents.first, let start = object.start, let end = object.end {
            #expect(end - start >= 95 && end - start <= 105, "\(object)")
        }
        if let object = congestion.first, let start = object.start, let end = object.end {
            #expect(end - start >= 195 && end - start <= 205, "\(object)")
            #expect(object.value == 12)
            #expect(start - (incidents.first?.start ?? 0) >= 395 && start - (incidents.first?.start ?? 0) <= 405)
        }
        #expect(loop.metrics(at: 6).trafficObjects == 2)
    }
}

import Foundation
import OpenLR
import RoadMap
import RoadMapStore
import Routing
import Testing
import Traffic

/// The traffic layer feeding a route session on the sample map (issue 13 with the routing
/// library's traffic input): a closure reported by the feed makes the active route avoid it.
@Suite struct TrafficRoutingTests {
    func position(_ map: MapFile, on directed: DirectedLink, at offset: Double) throws -> RouteSession.VehiclePosition {
        let link = try map.link(directed.link)
        let shape = directed.direction == .forward ? link.geometry : link.geometry.reversed()
        return RouteSession.VehiclePosition(
            link: directed, offset: offset, point: shape.point(atOffset: offset)!.point)
    }

    @Test(arguments: [ProposalAcceptance.automatic, .unreachableOnly])
    func aClosureFromTheFeedMakesTheActiveRouteAvoidIt(acceptance: ProposalAcceptance) throws {
        let map = try SampleMap.map()
        var session = RouteSession(
            planner: RoutePlanner(network: map), configuration: RouteSessionConfiguration(acceptance: acceptance))
        let start = try position(
            map,
            on: try RoutePlanner(network: map).plan(
                from: TrafficLayerTests.from, to: TrafficLayerTests.to
            ).links[0], at: 5)
        _ = try session.setDestination(TrafficLayerTests.to, from: .vehicle(start), time: 0)
        let route = try #require(session.links)
        let closed = route[route.count / 2]
        // The closure as a provider would send it: an OpenLR reference of the closed link.
        let reference = try OpenLRBinary.encode(try LineLocationEncoder(network: map).encode([closed]))
        let incidents = """
            [{"id": "works", "iconCategory": 9, "roadClosed": true, "openlr": "\(reference)"}]
            """
        let feed = try TrafficFeedParser.parse(
            TrafficFeedParserTests.feed(incidents: incidents), now: TrafficLayerTests.now)
        let layer = TrafficLayer(feed: feed, network: map)
        #expect(layer.incidents.first?.line.links == [closed])

        session.setTraffic(layer.routeTraffic(at: TrafficLayerTests.now, network: map))
        let events = session.update(try position(map, on: route[0], at: 8), time: 1)
        #expect(
            events.contains { if case .activeRouteChanged(_, .avoidBlockage) = $0 { true } else { false } }, "\(events)"
        )
        let detour = try #require(session.links)
        #expect(!detour.contains(closed))
        #expect(detour.last == route.last)
    }
}

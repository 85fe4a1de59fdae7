import Foundation
import OpenLR
import RoadMap
import RoadMapStore
import Routing
import Testing
import Traffic

@Suite struct TrafficLayerTests {
    static let now = TrafficFeedParserTests.now
    static let from = GeoPoint(latitude: 60.1699, longitude: 24.9384)
    static let to = GeoPoint(latitude: 60.1760, longitude: 24.9500)

    /// A feed about the fastest route across central Helsinki: slow traffic on its first links
    /// (OpenLR, encoded from the map), a closure on a link in its middle (link list), a reference
    /// in Luxembourg (off the map). The layer places each record, and the route planner avoids
    /// the closure while the feed is valid, and only then.
    @Test func aFeedOnTheSampleMapSlowsAndClosesLinksUntilItExpires() throws {
        let map = try SampleMap.map()
        let route = try RoutePlanner(network: map).plan(from: Self.from, to: Self.to).links
        #expect(route.count > 6)
        let slow = Array(route[1...3])
        let closed = route[route.count / 2]
        let openLR = try OpenLRBinary.encode(try LineLocationEncoder(network: map).encode(slow))
        let flow = """
            [{"openlr": "\(openLR)", "currentSpeed": 10, "freeFlowSpeed": 40, "confidence": 0.9},
             {"openlr": "CwRbWyNG9RpsCQCb/jsbtAT/6/+jK1lE", "currentSpeed": 10, "freeFlowSpeed": 40},
             {"openlr": "CwRbWyNG9Rps", "currentSpeed": 10, "freeFlowSpeed": 40}]
            """
        let incidents = """
            [{"id": "closure-1", "iconCategory": 9, "roadClosed": true, "links": ["\(closed)"],
              "startTime": "\(TrafficFeedParserTests.time(-60))"}]
            """
        let feed = try TrafficFeedParser.parse(
            TrafficFeedParserTests.feed(flow: flow, incidents: incidents), now: Self.now)
        let layer = TrafficLayer(feed: feed, network: map)
        #expect(layer.matched.map(\.position) == ["flowSegments[0]", "incidents[0]"])
        #expect(layer.skipped.map(\.position) == ["flowSegments[1]", "flowSegments[2]"])
        #expect(layer.skipped.map(\.reason.name) == ["not on the map", "invalid OpenLR"])
        #expect(layer.matched[0].line.links == slow)
        for link in slow {
            let entry = try #require(layer.flow(on: link, at: Self.now))
            let length = try map.link(link.link).length
            // 10 km/h instead of 40: 0.27 s per metre lost.
            #expect(abs(entry.delay - (length / (10 / 3.6) - length / (40 / 3.6))) < 0.01)
        }
        #expect(layer.incidents(at: Self.now).map(\.record.id) == ["closure-1"])

        let traffic = layer.routeTraffic(at: Self.now, network: map)
        #expect(traffic.isClosed(closed))
        #expect(slow.allSatisfy { traffic.delay(on: $0) > 0 })
        let detour = try RoutePlanner(network: map, traffic: traffic).plan(from: Self.from, to: Self.to)
        #expect(!detour.links.contains(closed))

        // After validUntil nothing of the feed holds any more.
        let later = Self.now.addingTimeInterval(301)
        #expect(layer.flow(on: slow[0], at: later) == nil)
        #expect(layer.incidents(at: later).isEmpty)
        #expect(layer.routeTraffic(at: later, network: map) == RouteTraffic())
    }

    /// An incident given as coordinates (TomTom's incident geometry) is placed on the road it follows.
    @Test func anIncidentByCoordinatesIsPlacedOnItsRoad() throws {
        let map = try SampleMap.map()
        let route = try RoutePlanner(network: map).plan(from: Self.from, to: Self.to).links
        let stretch = Array(route[2...4])
        var points: [GeoPoint] = []
        for directed in stretch {
            let link = try map.link(directed.link)
            let shape = directed.direction == .forward ? link.geometry : link.geometry.reversed()
            points += points.last == shape.first ? Array(shape.dropFirst()) : shape
        }
        let coordinates = points.map { "[\($0.longitude), \($0.latitude)]" }.joined(separator: ", ")
        let incidents = #"[{"id": "jam", "iconCategory": 6, "delay": 120, "coordinates": [\#(coordinates)]}]"#
        let feed = try TrafficFeedParser.parse(TrafficFeedParserTests.feed(incidents: incidents), now: Self.now)
        let layer = TrafficLayer(feed: feed, network: map)
        #expect(layer.incidents.first?.line.links == stretch)
        let traffic = layer.routeTraffic(at: Self.now, network: map)
        #expect(abs(stretch.reduce(0) { $0 + traffic.delay(on: $1) } - 120) < 0.5)
    }

    /// Where records overlap on a link, a closure holds whatever the order, then the slower record.
    @Test func overlappingRecordsKeepTheClosureThenTheSlowerSpeed() throws {
        let map = try SampleMap.map()
        let route = try RoutePlanner(network: map).plan(from: Self.from, to: Self.to).links
        let (a, b) = (route[1], route[2])
        let flow = """
            [{"links": ["\(a)"], "currentSpeed": 30, "freeFlowSpeed": 40, "roadClosure": true},
             {"links": ["\(a)"], "currentSpeed": 5, "freeFlowSpeed": 40},
             {"links": ["\(b)"], "currentSpeed": 20, "freeFlowSpeed": 40},
             {"links": ["\(b)"], "currentSpeed": 10, "freeFlowSpeed": 40},
             {"links": ["\(b)"], "currentSpeed": 30, "freeFlowSpeed": 40}]
            """
        let layer = TrafficLayer(
            feed: try TrafficFeedParser.parse(TrafficFeedParserTests.feed(flow: flow), now: Self.now), network: map)
        #expect(layer.flow(on: a, at: Self.now)?.closed == true)
        #expect(layer.flow(on: b, at: Self.now)?.currentSpeed == 10)
        #expect(layer.routeTraffic(at: Self.now, network: map).isClosed(a))
    }
}

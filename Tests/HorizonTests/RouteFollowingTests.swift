import Testing
import RoadMap
@testable import Horizon
import TestSupport

/// A main street west → east (links 1…5, nodes 0…5, 100 m each) and a detour around block 2:
/// link 11 north from node 1, link 12 east, link 13 south back to node 2; link 20 far away, unconnected.
private func detourGraph() -> PlaneRoadGraph {
    var graph = PlaneRoadGraph()
    for i in 0...5 { graph.node(Int64(i), Double(i) * 100, 0) }
    for i in 1...5 { graph.road(UInt64(i), Int64(i - 1), Int64(i), highway: .secondary, name: "Main") }
    graph.node(11, 100, 80); graph.node(12, 200, 80)
    graph.road(11, 1, 11); graph.road(12, 11, 12); graph.road(13, 12, 2)
    graph.node(20, 500, 500); graph.node(21, 600, 500)
    graph.road(20, 20, 21)  // not connected to anything
    return graph
}

@Suite("route following")
struct RouteFollowingTests {
    @Test("after a detour the vehicle is back on the route and the main path follows it again")
    func rejoinAfterDetour() throws {
        let engine = try HorizonEngine(network: detourGraph().network)
        try engine.setRoute((1...5).map { fwd(UInt64($0)) })
        _ = try engine.update(onRoad(fwd(1), 50, time: 0, discontinuity: true))
        #expect(engine.isFollowingRoute)
        var time = 0.0
        for (link, offset) in [(fwd(11), 40.0), (fwd(12), 50), (fwd(13), 40)] {
            time += 2
            _ = try engine.update(onRoad(link, offset, time: time))
            #expect(!engine.isFollowingRoute, "on the detour at \(link)")
        }
        time += 2
        _ = try engine.update(onRoad(fwd(3), 20, time: time))
        #expect(engine.isFollowingRoute)
        let main = try #require(engine.tree.mainPath)
        let ahead = main.links.drop { $0.link != fwd(3) }.prefix(3)
        #expect(ahead.map(\.link) == [fwd(3), fwd(4), fwd(5)])
        #expect(ahead.map(\.routeIndex) == [2, 3, 4])
    }

    @Test("route text: link lines or an adasis match CSV; bad lines named")
    func parsing() throws {
        #expect(try RoutePlanning.parse("# my route\nL1+\nL1+\n\nL2-\n") == [ListedLink(fwd(1)), ListedLink(bwd(2))])
        let csv =
            "time_s,state,way_id,link_id,offset_m,lat,lon\n0.0,on_road,10,L1+,5,60,24\n1.0,off_road,,,,60,24\n"
            + "2.0,on_road,20,L2+,3,60,24\n3.0,on_road,20,L2+,9.5,60,24\n"
        #expect(try RoutePlanning.parse(csv) == [ListedLink(fwd(1), seen: 5...5), ListedLink(fwd(2), seen: 3...9.5)])
        // A match CSV whose offset is no distance: named, not a crash.
        for bad in ["nan", "-3", "inf", "x"] {
            #expect {
                try RoutePlanning.parse(
                    "time_s,state,way_id,link_id,offset_m,lat,lon\n0.0,on_road,10,L1+,\(bad),60,24\n")
            } throws: { "\($0)".contains("line 2: offset_m '\(bad)'") }
        }
        #expect(try RoutePlanning.parse("time_s,link_id,offset_m\n0.0,L1+,\n") == [ListedLink(fwd(1))])
        #expect(throws: RouteError.self) { try RoutePlanning.parse("L1+\nway 12\n") }
        #expect { try RoutePlanning.parse("L1+\nway 12\n") } throws: { "\($0)".contains("line 2") }
    }

    @Test("a link a drive was matched to only briefly stays out of the route where keeping it means a detour")
    func linksSeenOnlyBriefly() throws {
        let network = detourGraph().network
        // At node 1 one fix names link 11 (the road north, 1.5 m in) before the drive goes on east
        // to link 3: keeping link 11 would take the route round the block (78.5 + 100 + 80 m past
        // that fix), leaving it out costs link 2 (100 m) and the 1.5 m seen plus 10.
        let turnedAtTheNode = [
            ListedLink(fwd(1), seen: 20...99), ListedLink(fwd(11), seen: 1.5...1.5), ListedLink(fwd(3), seen: 6...90),
        ]
        #expect(
            try RoutePlanning.connect(turnedAtTheNode, in: network, skippingUnreachable: true)
                == ([fwd(1), fwd(2), fwd(3)], 1))
        // A drive seen on most of link 11 does go round the block.
        let roundTheBlock = [
            ListedLink(fwd(1), seen: 20...99), ListedLink(fwd(11), seen: 5...79), ListedLink(fwd(3), seen: 6...90),
        ]
        #expect(
            try RoutePlanning.connect(roundTheBlock, in: network, skippingUnreachable: true)
                == ([fwd(1), fwd(11), fwd(12), fwd(13), fwd(3)], 0))
        // Listed by hand, a reachable link is never left out; strictly, not even a brief one.
        #expect(
            try RoutePlanning.connect([fwd(1), fwd(11), fwd(3)], in: network, skippingUnreachable: true)
                == ([fwd(1), fwd(11), fwd(12), fwd(13), fwd(3)], 0))
        #expect(
            try RoutePlanning.connect(turnedAtTheNode, in: network).route == [
                fwd(1), fwd(11), fwd(12), fwd(13), fwd(3),
            ])
    }

    @Test("gaps between listed links are closed with the shortest legal connection")
    func connecting() throws {
        let network = detourGraph().network
        let (route, skipped) = try RoutePlanning.connect([fwd(1), fwd(4)], in: network)
        #expect(route == [fwd(1), fwd(2), fwd(3), fwd(4)] && skipped == 0)
        // Through the detour when it is listed.
        #expect(
            try RoutePlanning.connect([fwd(1), fwd(12), fwd(3)], in: network).route == [
                fwd(1), fwd(11), fwd(12), fwd(13), fwd(3),
            ])
        // An unreachable link: an error, or left out when asked to be lenient (a wrong match in a drive).
        #expect(throws: RouteError.self) { try RoutePlanning.connect([fwd(3), fwd(1)], in: network, maximumGap: 3) }
        let lenient = try RoutePlanning.connect(
            [fwd(1), fwd(2), fwd(3), fwd(20), fwd(4)], in: network, skippingUnreachable: true)
        #expect(lenient.route == [fwd(1), fwd(2), fwd(3), fwd(4)] && lenient.skipped == 1)
    }
}

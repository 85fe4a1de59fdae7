import RoadMap
import TestSupport
import Testing
@testable import Routing

/// Decide by steering: with a proposal pending, where the driver goes decides it.
@Suite("route session: decide by steering")
struct RouteSteeringTests {
    let drive = GridDrive()

    /// A manual session with a proposal pending: the route's fourth link delayed by 1 000 s, found
    /// at the replan at 10 s with the vehicle on the second link.
    func pending() throws -> (session: RouteSession, route: [DirectedLink], proposal: ProposedRoute) {
        var session = RouteSession(
            planner: RoutePlanner(network: drive.network),
            configuration: RouteSessionConfiguration(replanInterval: 10, acceptance: .manual))
        let start = try drive.position(on: drive.link(0, 0, 0, 1))
        let destination = try drive.position(on: drive.link(5, 4, 5, 5)).point
        _ = try session.setDestination(destination, from: .vehicle(start), time: 0)
        let route = try #require(session.links)
        session.planner.traffic = RouteTraffic(delays: [route[3]: 1000])
        _ = session.update(try drive.position(on: route[1], at: 20), time: 10)
        let proposal = try #require(session.proposal)
        return (session, route, proposal)
    }

    @Test("driving onto the proposal where it leaves the route makes it active (better route)")
    func takesProposal() throws {
        var (session, route, proposal) = try pending()
        #expect(proposal.sharedLinks >= 1 && proposal.sharedLinks < proposal.links.count)
        // Along the shared links: nothing is decided yet.
        for (step, link) in proposal.links[1..<proposal.sharedLinks].enumerated() {
            #expect(session.update(try drive.position(on: link), time: 11 + Double(step)).isEmpty)
            #expect(session.proposal != nil)
        }
        let turn = proposal.links[proposal.sharedLinks]
        #expect(!route.contains(turn))
        let events = session.update(try drive.position(on: turn, at: 20), time: 15)
        #expect(
            events == [.activeRouteChanged(id: 2, reason: .betterRoute), .routeRemoved(id: 1, reason: .betterRoute)])
        #expect(session.links == proposal.links)
        #expect(session.active?.progress == proposal.sharedLinks)
        #expect(session.proposal == nil)
        // Driving on along it: no deviation.
        let next = proposal.links[proposal.sharedLinks + 1]
        #expect(session.update(try drive.position(on: next, at: 20), time: 16).isEmpty)
        #expect(session.update(try drive.position(on: next, at: 40), time: 17).isEmpty)
    }

    @Test("staying on the active route past the divergence withdraws the proposal")
    func staysOnRoute() throws {
        var (session, route, proposal) = try pending()
        let stayed = route[proposal.activeDivergence]
        #expect(!proposal.links.contains(stayed))
        let events = session.update(try drive.position(on: stayed, at: 20), time: 15)
        #expect(events == [.routeRemoved(id: 2, reason: .manual)])
        #expect(session.links == route)
        #expect(session.proposal == nil)
    }

    @Test("leaving both routes is a deviation: the proposal goes, the new route starts where the vehicle is")
    func leavesBoth() throws {
        var (session, route, proposal) = try pending()
        // A street neither route takes, away from the active route (a fix there, whatever way the
        // vehicle got there).
        let streets = drive.grid.links.flatMap { [DirectedLink($0.id, .forward), DirectedLink($0.id, .backward)] }
        let off = try #require(
            try streets.first {
                try !route.contains($0) && !proposal.links.contains($0)
                    && session.snapped(try drive.position(on: $0, at: 10)) == nil
                    && session.snapped(try drive.position(on: $0, at: 20)) == nil
            })
        _ = session.update(try drive.position(on: off, at: 10), time: 15)
        let events = session.update(try drive.position(on: off, at: 20), time: 16)
        #expect(
            events == [
                .deviated(id: 1, link: off), .routeRemoved(id: 2, reason: .deviation),
                .routeAdded(id: 3, reason: .deviation), .activeRouteChanged(id: 3, reason: .deviation),
                .routeRemoved(id: 1, reason: .deviation),
            ])
        #expect(session.links?.first == off)
    }
}

@Suite("route session: snapping and proposals")
struct RouteSnappingProposalTests {
    @Test("a fix on a pending proposal's own links is never snapped back onto the active route")
    func proposalLinksAreNotSnapped() throws {
        let drive = GridDrive()
        var session = RouteSession(
            planner: RoutePlanner(network: drive.network),
            configuration: RouteSessionConfiguration(replanInterval: 10, acceptance: .manual))
        let start = try drive.position(on: drive.link(0, 0, 0, 1))
        _ = try session.setDestination(
            try drive.position(on: drive.link(5, 4, 5, 5)).point, from: .vehicle(start), time: 0)
        let route = try #require(session.links)
        session.planner.traffic = RouteTraffic(delays: [route[3]: 1000])
        _ = session.update(try drive.position(on: route[1], at: 20), time: 10)
        let proposal = try #require(session.proposal)
        // A few metres onto the proposal's first own link: near the active route, yet not snapped.
        let turning = try drive.position(on: proposal.links[proposal.sharedLinks], at: 5)
        #expect(session.snapped(turning) == nil)
        // Without the proposal the same fix is a slip, snapped onto the route.
        _ = try session.rejectProposal(time: 11)
        #expect(session.snapped(turning) != nil)
    }
}

import RoadMap
import TestSupport
import Testing
@testable import Routing

/// Better routes at the periodic replan, by acceptance mode, with synthetic traffic on the grid.
@Suite("route session: better routes and proposals")
struct RouteProposalTests {
    let drive = GridDrive()

    /// A session (replan every 10 s) with a route from the middle of (0,0)→(0,1) to the middle of
    /// (5,4)→(5,5), and the vehicle on its second link.
    func session(_ acceptance: ProposalAcceptance, minTimeDifference: Double = 300, minTrafficDelay: Double = 600)
        throws -> RouteSession
    {
        var session = RouteSession(
            planner: RoutePlanner(network: drive.network),
            configuration: RouteSessionConfiguration(
                replanInterval: 10, acceptance: acceptance, minTimeDifference: minTimeDifference,
                minTrafficDelay: minTrafficDelay))
        let start = try drive.position(on: drive.link(0, 0, 0, 1))
        let destination = try drive.position(on: drive.link(5, 4, 5, 5)).point
        _ = try session.setDestination(destination, from: .vehicle(start), time: 0)
        let route = try #require(session.links)
        #expect(session.update(try drive.position(on: route[1], at: 10), time: 5).isEmpty)
        return session
    }

    /// The events of the replan at 10 s, the vehicle on the route's second link, without the
    /// refresh's routeUpdated.
    func replan(_ session: inout RouteSession, traffic: RouteTraffic) throws -> [RouteEvent] {
        let route = try #require(session.links)
        session.planner.traffic = traffic
        let events = session.update(try drive.position(on: route[1], at: 20), time: 10)
        #expect(events.first.map { if case .routeUpdated(1, .refresh, _, _) = $0 { true } else { false } } == true)
        return events.filter { if case .routeUpdated = $0 { false } else { true } }
    }

    func delayed(_ link: DirectedLink, by seconds: Double) -> RouteTraffic {
        RouteTraffic(delays: [link: seconds])
    }

    @Test("automatic: a route 1 000 s faster replaces the active one: added, active changed, old removed")
    func automaticReplaces() throws {
        var session = try session(.automatic)
        let route = try #require(session.links)
        let events = try replan(&session, traffic: delayed(route[3], by: 1000))
        #expect(
            events == [
                .routeAdded(id: 2, reason: .betterRoute), .activeRouteChanged(id: 2, reason: .betterRoute),
                .routeRemoved(id: 1, reason: .betterRoute),
            ])
        let better = try #require(session.links)
        #expect(better.first == route[1], "the new route starts on the vehicle's link")
        #expect(!better.contains(route[3]), "it avoids the delayed link")
        #expect(better.last == route.last)
        #expect(session.proposal == nil)
    }

    @Test("a delay below both thresholds changes nothing; above minTrafficDelay any faster route counts")
    func thresholds() throws {
        var small = try session(.automatic)
        let route = try #require(small.links)
        #expect(try replan(&small, traffic: delayed(route[3], by: 200)).isEmpty, "saves < 300 s, delay < 600 s")
        #expect(small.links == route)
        // 700 s of delay: above minTrafficDelay; the time rule alone (10 000 s) would not fire.
        var byDelay = try session(.automatic, minTimeDifference: 10_000)
        let events = try replan(&byDelay, traffic: delayed(route[3], by: 700))
        #expect(events.contains(.activeRouteChanged(id: 2, reason: .betterRoute)), "\(events)")
        var neither = try session(.automatic, minTimeDifference: 10_000, minTrafficDelay: 10_000)
        #expect(try replan(&neither, traffic: delayed(route[3], by: 700)).isEmpty)
    }

    @Test("manual: the better route is proposed; accepting makes it active, accepting again is an error")
    func manualAccept() throws {
        var session = try session(.manual)
        let route = try #require(session.links)
        let events = try replan(&session, traffic: delayed(route[3], by: 1000))
        let proposal = try #require(session.proposal)
        #expect(events.count == 2)
        #expect(events.first == .routeAdded(id: 2, reason: .betterRoute))
        guard case .routeProposed(2, .betterRoute, let saved) = events.last else {
            Issue.record("no proposal event: \(events)")
            return
        }
        #expect(saved > 900 && saved <= 1000, "saves the delay less the detour: \(saved)")
        #expect(saved == proposal.timeSaved)
        #expect(session.links == route, "the active route stays until the client decides")
        #expect(!proposal.links.contains(route[3]))
        let accepted = try session.acceptProposal(time: 11)
        #expect(accepted == [.activeRouteChanged(id: 2, reason: .manual), .routeRemoved(id: 1, reason: .manual)])
        #expect(session.links == proposal.links)
        #expect(session.proposal == nil)
        #expect(throws: RoutingError.noProposal) { try session.acceptProposal(time: 12) }
        #expect(throws: RoutingError.noProposal) { try session.rejectProposal(time: 12) }
        // The vehicle drives on along the accepted route without further events.
        #expect(session.update(try drive.position(on: proposal.links[1], at: 30), time: 13).isEmpty)
    }

    @Test("manual: rejecting removes the proposal and keeps the route; the same proposal is not made twice")
    func manualReject() throws {
        var session = try session(.manual)
        let route = try #require(session.links)
        _ = try replan(&session, traffic: delayed(route[3], by: 1000))
        // The next replan, further along the shared links, finds the same route: nothing new.
        let again = session.update(try drive.position(on: route[1], at: 40), time: 20)
        #expect(again.count == 1 && again.allSatisfy { if case .routeUpdated = $0 { true } else { false } }, "\(again)")
        #expect(session.proposal?.id == 2)
        #expect(try session.rejectProposal(time: 21) == [.routeRemoved(id: 2, reason: .manual)])
        #expect(session.links == route)
        #expect(session.proposal == nil)
    }

    @Test("unreachable-only: a faster route is only proposed; a blockage replaces the route (avoid blockage)")
    func unreachableOnly() throws {
        var faster = try session(.unreachableOnly)
        let route = try #require(faster.links)
        let proposed = try replan(&faster, traffic: delayed(route[3], by: 1000))
        #expect(proposed.first == .routeAdded(id: 2, reason: .betterRoute))
        #expect(faster.links == route)
        var blocked = try session(.unreachableOnly)
        var closure = RouteTraffic()
        closure.close(route[3].link)
        let events = try replan(&blocked, traffic: closure)
        #expect(
            events == [
                .routeAdded(id: 2, reason: .avoidBlockage), .activeRouteChanged(id: 2, reason: .avoidBlockage),
                .routeRemoved(id: 1, reason: .avoidBlockage),
            ])
        #expect(try #require(blocked.links).allSatisfy { $0.link != route[3].link })
        // Manual mode proposes the way round a blockage instead.
        var manual = try session(.manual)
        #expect(try replan(&manual, traffic: closure).first == .routeAdded(id: 2, reason: .avoidBlockage))
        #expect(manual.proposal?.reason == .avoidBlockage)
    }

    @Test("a blocked route with no way round reports the failure and keeps the route")
    func blockedWithoutAlternative() throws {
        var session = try session(.automatic)
        let route = try #require(session.links)
        var closure = RouteTraffic()
        closure.close(try #require(route.last).link)
        let events = try replan(&session, traffic: closure)
        guard case .planningFailed(.unreachable, let retryAt) = events.first, events.count == 1 else {
            Issue.record("expected one planning failure: \(events)")
            return
        }
        #expect(retryAt == 20, "tried again at the next replan")
        #expect(session.links == route)
    }

    @Test("setTraffic: a new blockage is acted on at the next fix, not at the next replan interval")
    func trafficAtOnce() throws {
        var session = try session(.automatic)
        let route = try #require(session.links)
        var closure = RouteTraffic()
        closure.close(route[3].link)
        session.setTraffic(closure)
        let events = session.update(try drive.position(on: route[1], at: 15), time: 6)
        #expect(events.contains(.activeRouteChanged(id: 2, reason: .avoidBlockage)), "\(events)")
    }
}

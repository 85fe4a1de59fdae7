import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

@Suite struct MatchCandidateTests {
    /// Link 1: two-way, 200 m east from node 1 to node 2. Link 2: one-way north, 15 m east of link 1’s end.
    private func graph() -> PlaneRoadGraph {
        var g = PlaneRoadGraph()
        g.add(1, 1, 2, [(0, 0), (200, 0)])
        g.add(2, 3, 4, [(215, -100), (215, 100)], oneway: .forward)
        return g
    }

    private func fix(_ g: PlaneRoadGraph, _ x: Double, _ y: Double, speed: Double? = nil, heading: Double? = nil)
        -> GNSSFix
    {
        let p = g.point(x, y)
        return GNSSFix(
            time: 0, latitude: p.latitude, longitude: p.longitude, horizontalAccuracy: 5,
            speed: speed, heading: heading)
    }

    @Test func everyLegalDirectionOfEveryNearbyLinkIsACandidate() throws {
        let g = graph()
        let search = CandidateSearch(configuration: .init())
        let found = try search.candidates(for: fix(g, 190, 10), sigma: 5, network: g.network)
        #expect(
            found.map(\.link) == [
                DirectedLink(LinkID(1), .forward), DirectedLink(LinkID(1), .backward),
                DirectedLink(LinkID(2), .forward),
            ])
        try #require(found.count == 3)
        let forward = found[0], backward = found[1], oneway = found[2]
        #expect(abs(forward.offset - 190) < 0.5)
        #expect(abs(backward.offset - 10) < 0.5)
        #expect(abs(forward.offset + backward.offset - forward.length) < 1e-9)
        #expect(abs(forward.distance - 10) < 0.2)
        #expect(abs(forward.bearing - 90) < 0.5 && abs(backward.bearing - 270) < 0.5)
        #expect(abs(oneway.distance - 25) < 0.3)
        // Without heading the two directions of link 1 score the same; the farther link scores lower.
        #expect(forward.emission == backward.emission)
        #expect(oneway.emission < forward.emission)
    }

    @Test func searchRadiusFollowsAccuracy() throws {
        let g = graph()
        let search = CandidateSearch(configuration: .init())
        // 40 m from link 1: outside the 30 m minimum radius at σ = 5, inside at σ = 20 (radius 60).
        #expect(try search.candidates(for: fix(g, 100, 40), sigma: 5, network: g.network).isEmpty)
        #expect(try search.candidates(for: fix(g, 100, 40), sigma: 20, network: g.network).count == 2)
        #expect(MatcherConfiguration().searchRadius(sigma: 1000) == 100)
        #expect(MatcherConfiguration().sigma(for: 0.5) == 3)
        #expect(MatcherConfiguration().sigma(for: nil) == 5)
    }

    @Test func headingSelectsTheDrivingDirectionOnlyWhenMoving() throws {
        let g = graph()
        let search = CandidateSearch(configuration: .init())
        let moving = try search.candidates(for: fix(g, 100, 2, speed: 10, heading: 92), sigma: 5, network: g.network)
        try #require(moving.count == 2)
        #expect(moving[0].emission > moving[1].emission + 5)
        let crawling = try search.candidates(for: fix(g, 100, 2, speed: 1, heading: 92), sigma: 5, network: g.network)
        #expect(crawling[0].emission == crawling[1].emission)
        // Until the direction is settled, a slow fix's heading counts, weakly: it breaks the tie
        // between the two directions (1 − cos 180° = 2 times the weight) and no more.
        let unsettled = try search.candidates(
            for: fix(g, 100, 2, speed: 1, heading: 92), sigma: 5, network: g.network, directionSettled: false)
        try #require(unsettled.count == 2)
        let gap = abs(unsettled[0].emission - unsettled[1].emission)
        #expect(gap > 0.9 && gap <= 2 * MatcherConfiguration().standstillHeadingWeight)
        #expect(gap < moving[0].emission - moving[1].emission)
        // A weight of 0 ignores a heading reported at standstill.
        var ignoring = MatcherConfiguration()
        ignoring.standstillHeadingWeight = 0
        let stopped = try CandidateSearch(configuration: ignoring).candidates(
            for: fix(g, 100, 2, speed: 0, heading: 270), sigma: 5, network: g.network, directionSettled: false)
        #expect(stopped.count == 2 && stopped[0].emission == stopped[1].emission)
    }

    @Test func emissionIsGaussianInDistance() {
        let search = CandidateSearch(configuration: .init())
        let f = GNSSFix(time: 0, latitude: 60, longitude: 25)
        #expect(search.emission(distance: 0, sigma: 5, linkBearing: 0, fix: f) == 0)
        #expect(abs(search.emission(distance: 10, sigma: 5, linkBearing: 0, fix: f) + 2) < 1e-12)
    }

    @Test func candidateCountIsCapped() throws {
        var g = PlaneRoadGraph()
        for k in 0..<20 { g.add(UInt64(k + 1), Int64(2 * k), Int64(2 * k + 1), [(Double(k), -50), (Double(k), 50)]) }
        var configuration = MatcherConfiguration()
        configuration.maximumCandidates = 6
        let found = try CandidateSearch(configuration: configuration)
            .candidates(for: fix(g, 0, 0), sigma: 5, network: g.network)
        #expect(found.count == 6)
        #expect(Set(found.map(\.link.link)) == [LinkID(1), LinkID(2), LinkID(3)])
    }

    @Test func aServiceRoadBesideAStreetLosesTheTieButNotAClearLead() throws {
        // Kalevankatu in the sample map has a service way 1–2 m beside it for 370 m (w43997238).
        var g = PlaneRoadGraph()
        g.add(1, 1, 2, [(0, 0), (200, 0)])
        g.add(2, 3, 4, [(0, 2), (200, 2)], highway: .service)
        g.add(3, 5, 6, [(0, 15), (200, 15)], highway: .service)
        var penalised = MatcherConfiguration()
        penalised.serviceRoadPenalty = 1
        let search = CandidateSearch(configuration: penalised)
        func best(_ x: Double, _ y: Double) throws -> LinkID? {
            try search.candidates(for: fix(g, x, y, speed: 8, heading: 90), sigma: 5, network: g.network)
                .max { $0.emission < $1.emission }?.link.link
        }
        #expect(try best(100, 1.2) == LinkID(1))  // nearer the service road, but by 0.4 m only
        #expect(try best(100, 14) == LinkID(3))  // on the service road 15 m away: it wins
        var unpenalised = MatcherConfiguration()
        unpenalised.serviceRoadPenalty = 0
        let plain = CandidateSearch(configuration: unpenalised)  // without the penalty the nearer way wins
        #expect(
            try plain.candidates(for: fix(g, 100, 1.2, speed: 8, heading: 90), sigma: 5, network: g.network)
                .max { $0.emission < $1.emission }?.link.link == LinkID(2))
    }
}

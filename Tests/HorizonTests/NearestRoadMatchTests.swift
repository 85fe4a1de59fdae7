import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

@Suite struct NearestRoadMatchTests {
    private func fix(
        _ g: PlaneRoadGraph, _ t: Double, _ x: Double, _ y: Double, speed: Double? = nil,
        heading: Double? = nil
    ) -> GNSSFix {
        let p = g.point(x, y)
        return GNSSFix(time: t, latitude: p.latitude, longitude: p.longitude, speed: speed, heading: heading)
    }

    @Test func nearestLinkWithDirectionFromHeading() throws {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (300, 0)])
        g.add(2, 2, 3, [(0, 20), (300, 20)])
        let matcher = NearestRoadMatcher(network: g.network)
        let first = try matcher.match(fix(g, 0, 100, 4, speed: 10, heading: 268))
        #expect(first.discontinuity)
        #expect(first.state.position?.link == DirectedLink(LinkID(1), .backward))
        #expect(abs((first.state.position?.offset ?? 0) - 200) < 0.5)
        // Stopped, no heading: the direction is kept; closer to link 2: it jumps there (a baseline).
        let stopped = try matcher.match(fix(g, 1, 95, 5, speed: 0))
        #expect(stopped.state.position?.link == DirectedLink(LinkID(1), .backward))
        #expect(!stopped.discontinuity)
        let across = try matcher.match(fix(g, 2, 90, 14, speed: 10, heading: 90))
        #expect(across.state.position?.link == DirectedLink(LinkID(2), .forward))
        let away = try matcher.match(fix(g, 3, 90, 200))
        #expect(away.state == .offRoad(point: g.point(90, 200)))
        #expect(try matcher.match(fix(g, 4, 90, 1)).discontinuity)
    }

    @Test func bothMatchersShareTheProtocolContract() throws {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (300, 0)])
        let matchers: [any MapMatcher] = [OnlineMapMatcher(network: g.network), NearestRoadMatcher(network: g.network)]
        for matcher in matchers {
            #expect(try matcher.match(fix(g, 0, 10, 2)).discontinuity)
            #expect(try !matcher.match(fix(g, 1, 20, 2)).discontinuity)
            var lost = fix(g, 2, 30, 2)
            lost.quality = .noFix
            #expect(try matcher.match(lost).state == .unknown)
            #expect(try matcher.match(fix(g, 3, 40, 2)).discontinuity)
            matcher.reset()
            #expect(try matcher.match(fix(g, 4, 50, 2)).discontinuity)
            #expect(throws: MatchingError.self) { try matcher.match(fix(g, 5, .infinity, 2)) }
        }
    }

    @Test func theBaselineTakesTheServiceRoadWhereTheHMMDoesNot() throws {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (100, 0)], highway: .primary)
        g.add(2, 1, 2, [(100, 0), (900, 0)], highway: .primary)
        g.add(3, 2, 3, [(900, 0), (1100, 0)], highway: .primary)
        g.add(4, 1, 4, [(100, 0), (120, 15)], highway: .service)
        g.add(5, 4, 5, [(120, 15), (880, 15)], highway: .service)
        g.add(6, 5, 2, [(880, 15), (900, 0)], highway: .service)
        let drive = SimulatedDrive(path: [(0, 0), (1100, 0)], speed: { _ in 15 }, duration: 70, noise: 5, seed: 1)
        func onService(_ matcher: any MapMatcher) throws -> Int {
            try drive.fixes.map { try matcher.match($0) }
                .filter { [LinkID(4), LinkID(5), LinkID(6)].contains($0.state.position?.link.link) }.count
        }
        let baseline = try onService(NearestRoadMatcher(network: g.network))
        let hmm = try onService(OnlineMapMatcher(network: g.network))
        print(
            "fixes on the parallel service road: nearest-road baseline \(baseline), HMM \(hmm) of \(drive.fixes.count)")
        #expect(baseline > 0)
        #expect(hmm == 0)
    }
}

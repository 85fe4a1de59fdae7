import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

/// A car turning left at a junction, its fix a couple of metres into the turn: the fix's course is
/// the step's (between the road left and the road entered), and judged against the new road alone
/// it favoured the road straight on (esplanadi at 219 s, where the fix lay 0.2 m from the street the
/// car turned into and 3.6 m from the one straight on).
@Suite struct CourseThroughNodeTests {
    /// A street east along y = 0 to the node at x = 200 (link 1), on east (link 2); a street north
    /// from the node (link 3).
    private func junction() -> PlaneRoadGraph {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (200, 0)])
        g.add(2, 1, 2, [(200, 0), (400, 0)])
        g.add(3, 1, 3, [(200, 0), (200, 200)])
        return g
    }

    /// East at 7 m/s to x = 193, left round the corner, north at 7 m/s: the turn's fix, scattered,
    /// lies 4 m east of the street north and 2 m north of the street east, its course the step's 55°
    /// (35° off the street east, 55° off the street north).
    private func drive() -> [GNSSFix] {
        let graph = junction()
        var steps: [(x: Double, y: Double, speed: Double, heading: Double)] = (0...25).map {
            (18 + 7 * Double($0), 0, 7, 90)  // x 18…193
        }
        steps.append((204, 2, 6, 55))
        steps += (1...8).map { (200, 2 + 7 * Double($0), 7, 0) }
        return steps.enumerated().map { time, step in
            let p = graph.point(step.x, step.y)
            return GNSSFix(
                time: Double(time), latitude: p.latitude, longitude: p.longitude, horizontalAccuracy: 5,
                speed: step.speed, heading: step.heading)
        }
    }

    private func turnFix(_ configuration: MatcherConfiguration) throws -> DirectedLink? {
        let matcher = OnlineMapMatcher(network: junction().network, configuration: configuration)
        var matched: [DirectedLink?] = []
        for fix in drive() { matched.append(try matcher.match(fix).state.position?.link) }
        #expect(matched.suffix(8).allSatisfy { $0 == DirectedLink(LinkID(3), .forward) })
        return matched[26]
    }

    @Test("the fix a couple of metres into the turn is on the street turned into")
    func turnedInto() throws {
        #expect(try turnFix(MatcherConfiguration()) == DirectedLink(LinkID(3), .forward))
    }

    @Test("judged against each road's own direction, the road straight on took it")
    func againstTheRoadAlone() throws {
        var configuration = MatcherConfiguration()
        configuration.expectsCourseThroughNode = false
        #expect(try turnFix(configuration) == DirectedLink(LinkID(2), .forward))
    }
}

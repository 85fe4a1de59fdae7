import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

/// A car that turns round inside a link (a U-turn mid-block, kaisaniemi 130–133 s) is matched to
/// the same street in the other direction, not to a side road beside the place it turned.
@Suite struct InLinkUTurnTests {
    /// A two-way street along y = 0, x 0…300 (link 1) and on to 600 (link 2); a side street (link 3)
    /// leaves their node west-north-west, 12 m north of the street 100 m back.
    private func street() -> PlaneRoadGraph {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (300, 0)])
        g.add(2, 1, 2, [(300, 0), (600, 0)])
        g.add(3, 1, 3, [(300, 0), (200, 12)])
        return g
    }

    /// East at 8 m/s to x = 260, slowing, round in a tight arc, then west; no noise.
    private func drive() -> [GNSSFix] {
        let plane = LocalProjection(origin: PlaneRoadGraph.origin)
        var fixes: [GNSSFix] = []
        func fix(_ t: Double, _ x: Double, _ y: Double, _ speed: Double, _ heading: Double) {
            let p = plane.unproject(x: x, y: y)
            fixes.append(
                GNSSFix(
                    time: t, latitude: p.latitude, longitude: p.longitude, horizontalAccuracy: 5, speed: speed,
                    heading: heading))
        }
        for k in 0...30 { fix(Double(k), 20 + 8 * Double(k), 0, 8, 90) }  // x 20…260
        fix(31, 265, -1, 3, 90)
        fix(32, 268, 2, 3, 20)
        fix(33, 266, 4, 3, 300)
        for k in 1...10 { fix(33 + Double(k), 266 - 6 * Double(k), 1, 6, 270) }
        return fixes
    }

    private func links(_ configuration: MatcherConfiguration) throws -> [DirectedLink?] {
        let matcher = OnlineMapMatcher(network: street().network, configuration: configuration)
        return try drive().map { try matcher.match($0).state.position?.link }
    }

    @Test("matched to the street turned round, from the first fix heading west")
    func turnedRoundOnTheStreet() throws {
        let matched = try links(MatcherConfiguration())
        #expect(matched[...30].allSatisfy { $0 == DirectedLink(LinkID(1), .forward) })
        #expect(
            matched[33...].allSatisfy { $0 == DirectedLink(LinkID(1), .backward) },
            "after the turn: \(matched[31...].map { $0.map(String.init(describing:)) ?? "–" })")
    }

    @Test(
        "turning round only at nodes, or only faster than the car drove, the side road takes the fixes after the turn")
    func onlyAtNodes() throws {
        var atNodes = MatcherConfiguration()
        atNodes.inLinkUTurnPenalty = nil
        var slowerOnly = MatcherConfiguration()
        slowerOnly.inLinkUTurnSpeed = 2
        for configuration in [atNodes, slowerOnly] {
            let matched = try links(configuration)
            #expect(matched[33...].contains { $0?.link == LinkID(3) })
        }
    }
}

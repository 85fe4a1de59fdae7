import Testing
import RoadMap
@testable import Horizon

@Suite struct MatchStateTests {
    @Test func namesUsedInCSVOutput() {
        let position = MatchedPosition(
            link: DirectedLink(LinkID(1), .forward), offset: 3,
            point: GeoPoint(latitude: 60, longitude: 25), confidence: 0.9)
        #expect(MatchState.onRoad(position).name == "on_road")
        #expect(MatchState.offRoad(point: position.point).name == "off_road")
        #expect(MatchState.unknown.name == "unknown")
        #expect(MatchState.onRoad(position).position == position)
        #expect(MatchState.unknown.position == nil)
    }
}

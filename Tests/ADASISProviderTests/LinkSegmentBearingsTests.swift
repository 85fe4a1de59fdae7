import RoadMap
import Testing

@testable import ADASISProvider

@Suite struct LinkSegmentBearingsTests {
    /// A bent street: north, then east, then south-east, with a zero-length segment in between.
    private let geometry = [
        GeoPoint(latitude: 60.1700, longitude: 24.9400), GeoPoint(latitude: 60.1704, longitude: 24.9400),
        GeoPoint(latitude: 60.1704, longitude: 24.9400), GeoPoint(latitude: 60.1704, longitude: 24.9410),
        GeoPoint(latitude: 60.1701, longitude: 24.9415),
    ]
    private let link = DirectedLink(LinkID(7), .forward)

    @Test func theBearingIsTheOnePointAtOffsetGivesEverywhere() throws {
        let segments = try #require(LinkSegmentBearings(link: link, geometry: geometry))
        let length = zip(geometry, geometry.dropFirst()).map { $0.distance(to: $1) }.reduce(0, +)
        // Every 0.1 m, before the start, on each vertex and past the end: POSITION's relative
        // heading must not change by keeping the segments.
        var offsets = stride(from: -5.0, through: length + 5, by: 0.1).map { $0 }
        var along = 0.0
        for (a, b) in zip(geometry, geometry.dropFirst()) {
            along += a.distance(to: b)
            offsets += [along, along.nextDown, along.nextUp]
        }
        for offset in offsets {
            #expect(segments.bearing(atOffset: offset) == geometry.point(atOffset: offset)?.bearing, "at \(offset) m")
        }
        let reversed = Array(geometry.reversed())
        let back = try #require(LinkSegmentBearings(link: link.reversed, geometry: reversed))
        for offset in offsets {
            #expect(back.bearing(atOffset: offset) == reversed.point(atOffset: offset)?.bearing, "back at \(offset) m")
        }
    }

    @Test func aSinglePointHasBearingZeroAndNoGeometryHasNone() throws {
        let point = try #require(LinkSegmentBearings(link: link, geometry: [geometry[0]]))
        #expect(point.bearing(atOffset: 3) == 0 && [geometry[0]].point(atOffset: 3)?.bearing == 0)
        #expect(LinkSegmentBearings(link: link, geometry: []) == nil)
    }
}

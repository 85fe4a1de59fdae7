import Foundation
import RoadMap
import Testing
@testable import RoadMapImport

@Suite("curvature along a road geometry")
struct CurvatureProfileTests {
    /// Points on a circle of `radius` metres around a Helsinki-like centre, every `step` degrees.
    static func circle(radius: Double, clockwise: Bool, step: Double = 10) -> [GeoPoint] {
        let projection = LocalProjection(origin: GeoPoint(latitude: 60.17, longitude: 24.94))
        return stride(from: 0.0, through: 180.0, by: step).map { degrees in
            let angle = (clockwise ? -degrees : degrees) * .pi / 180
            return projection.unproject(x: radius * cos(angle), y: radius * sin(angle))
        }
    }

    @Test("a circular road of known radius yields that radius", arguments: [100.0, 500.0])
    func circleRadius(radius: Double) throws {
        let profile = CurvatureProfile.points(along: Self.circle(radius: radius, clockwise: true))
        try #require(profile.count == 17)
        for point in profile {
            #expect(abs(1 / point.value - radius) < radius * 0.01, "radius \(1 / point.value) at \(point.offset) m")
        }
    }

    @Test("curving right is positive, curving left is negative")
    func sign() {
        let right = CurvatureProfile.points(along: Self.circle(radius: 100, clockwise: true))
        let left = CurvatureProfile.points(along: Self.circle(radius: 100, clockwise: false))
        #expect(right.allSatisfy { $0.value > 0 })
        #expect(left.allSatisfy { $0.value < 0 })
    }

    @Test("a straight road has zero curvature and offsets follow the geometry")
    func straight() throws {
        let points = (0..<4).map { GeoPoint(latitude: 60.17 + Double($0) * 0.001, longitude: 24.94) }
        let profile = CurvatureProfile.points(along: points)
        try #require(profile.count == 2)
        #expect(profile.allSatisfy { abs($0.value) < 1e-9 })
        #expect(abs(profile[0].offset - points[0].distance(to: points[1])) < 0.5)
    }
}

import Foundation
import RoadMap

/// Curvature along a polyline, for the curvature profile of a ``RoadLink``.
///
/// At every interior vertex the curvature is 1 / radius of the circle through it and its two
/// neighbours (the circumcircle), so the vertices of a circular road of radius R yield 1/R.
/// Sign: positive when the road curves right travelled in geometry order, negative when left.
public enum CurvatureProfile {
    /// One profile point per interior vertex (offset = metres from the first point).
    ///
    /// Degenerate vertices (repeated points) get curvature 0. Polylines with fewer than three
    /// points have no curvature points.
    public static func points(along geometry: [GeoPoint]) -> [ProfilePoint] {
        guard geometry.count >= 3 else { return [] }
        let projection = LocalProjection(origin: geometry[0])
        let planar = geometry.map { projection.project($0) }
        var result: [ProfilePoint] = []
        result.reserveCapacity(geometry.count - 2)
        var offset = 0.0
        for index in 1..<(planar.count - 1) {
            let a = planar[index - 1], b = planar[index], c = planar[index + 1]
            let ab = hypot(b.x - a.x, b.y - a.y)
            let bc = hypot(c.x - b.x, c.y - b.y)
            let ac = hypot(c.x - a.x, c.y - a.y)
            offset += ab
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            let denominator = ab * bc * ac
            // A left turn (counter-clockwise, x east / y north) has a positive cross product.
            let curvature = denominator > 0 ? -2 * cross / denominator : 0
            result.append(ProfilePoint(offset: offset, value: curvature))
        }
        return result
    }
}

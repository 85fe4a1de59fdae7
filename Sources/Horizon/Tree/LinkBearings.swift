import RoadMap

extension RoadLink {
    /// Distance from a junction over which the direction of a link is measured: long enough to
    /// ignore a tiny kink at the node, short enough to stay before the road's first bend.
    static let bearingProbeDistance = 20.0

    /// The driving direction (degrees clockwise from north) when entering the link in `direction`,
    /// measured from the entry node to a point ``bearingProbeDistance`` metres in.
    func entryBearing(_ direction: LinkDirection) -> Double {
        // Driven backward, the shape is read from its end (a reversed view: no copy of the points).
        direction == .forward
            ? Self.entryBearing(geometry, length: length) : Self.entryBearing(geometry.reversed(), length: length)
    }

    /// The driving direction (degrees clockwise from north) when leaving the link in `direction`,
    /// measured from a point ``bearingProbeDistance`` metres before the exit node to that node.
    func exitBearing(_ direction: LinkDirection) -> Double {
        direction == .forward
            ? Self.exitBearing(geometry, length: length) : Self.exitBearing(geometry.reversed(), length: length)
    }

    private static func entryBearing<Shape: BidirectionalCollection<GeoPoint>>(_ shape: Shape, length: Double) -> Double
    {
        let probe = Swift.min(RoadLink.bearingProbeDistance, length)
        guard let start = shape.first, let inside = shape.location(atOffset: probe)?.point, inside != start else {
            return endToEndBearing(shape)
        }
        return start.bearing(to: inside)
    }

    private static func exitBearing<Shape: BidirectionalCollection<GeoPoint>>(_ shape: Shape, length: Double) -> Double
    {
        let probe = Swift.max(0, length - RoadLink.bearingProbeDistance)
        guard let end = shape.last, let inside = shape.location(atOffset: probe)?.point, inside != end else {
            return endToEndBearing(shape)
        }
        return inside.bearing(to: end)
    }

    /// From the shape's first point to its last, 0 without points.
    private static func endToEndBearing<Shape: BidirectionalCollection<GeoPoint>>(_ shape: Shape) -> Double {
        shape.first.flatMap { first in shape.last.map { first.bearing(to: $0) } } ?? 0
    }
}

/// The signed turn from heading `from` to heading `to`, degrees in `(-180, 180]`: positive turns
/// right (clockwise), negative left, 0 straight on, 180 a U-turn.
func signedTurnAngle(from: Double, to: Double) -> Double {
    var angle = (to - from).truncatingRemainder(dividingBy: 360)
    if angle > 180 { angle -= 360 }
    if angle <= -180 { angle += 360 }
    return angle
}

import RoadMap

extension RoadLink {
    /// The geometry in the order a vehicle driving `direction` passes it.
    func travelGeometry(_ direction: LinkDirection) -> [GeoPoint] {
        direction == .forward ? geometry : geometry.reversed()
    }

    /// The OpenLR bearing of a line at `offset` metres from its entry in `direction`: towards the
    /// point `distance` metres further on, or, looking back (`backward`, a last point), towards the
    /// point `distance` metres before. Near a link end the window is moved inside the link.
    func openLRBearing(_ direction: LinkDirection, at offset: Double, distance: Double, backward: Bool) -> Double {
        let shape = travelGeometry(direction)
        let span = min(distance, length)
        if backward {
            let from = min(length, max(offset, span))
            let a = shape.point(atOffset: from)!.point, b = shape.point(atOffset: from - span)!.point
            return a.bearing(to: b)
        }
        let from = max(0, min(offset, length - span))
        let a = shape.point(atOffset: from)!.point, b = shape.point(atOffset: from + span)!.point
        return a.bearing(to: b)
    }
}

/// The smaller angle between two bearings, 0 ... 180°.
func bearingDifference(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: 360)
    return d > 180 ? 360 - d : d
}

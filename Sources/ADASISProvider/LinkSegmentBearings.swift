import RoadMap

/// The segments of one directed link's geometry in driving order, each with its length and
/// bearing: POSITION goes out ten times a second and needs the bearing of the road at the
/// vehicle, which lies on the same link tick after tick. Kept for that one link, it spares each
/// tick reading the link from the map, turning its geometry round and measuring every segment
/// again. Derived from the geometry only, so it holds for as long as the link is the same.
struct LinkSegmentBearings {
    /// The directed link whose geometry this is.
    let link: DirectedLink
    /// Length of segment `k` (geometry points `k` → `k + 1`), metres, as `GeoPoint.distance(to:)`.
    private let lengths: [Double]
    /// Bearing of segment `k`, degrees, as `GeoPoint.bearing(to:)`.
    private let bearings: [Double]
    /// Whether the geometry has a single point (bearing 0, as `point(atOffset:)` gives).
    private let isPoint: Bool

    /// The segments of `geometry`, given in the driving direction of `link`; `nil` for an empty
    /// geometry.
    init?(link: DirectedLink, geometry: [GeoPoint]) {
        guard !geometry.isEmpty else { return nil }
        self.link = link
        isPoint = geometry.count == 1
        var lengths: [Double] = [], bearings: [Double] = []
        lengths.reserveCapacity(geometry.count - 1)
        bearings.reserveCapacity(geometry.count - 1)
        for k in geometry.indices.dropLast() {
            lengths.append(geometry[k].distance(to: geometry[k + 1]))
            bearings.append(geometry[k].bearing(to: geometry[k + 1]))
        }
        self.lengths = lengths
        self.bearings = bearings
    }

    /// The bearing at `offset` metres along the geometry: that of the segment
    /// `[GeoPoint].point(atOffset:)` places the offset on, found by the same arithmetic, so the
    /// value is the same.
    func bearing(atOffset offset: Double) -> Double {
        if isPoint { return 0 }
        var remaining = Swift.max(0, offset)
        for k in lengths.indices {
            if remaining <= lengths[k] || k == lengths.count - 1 { return bearings[k] }
            remaining -= lengths[k]
        }
        return bearings[bearings.count - 1]
    }
}

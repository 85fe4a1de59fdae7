import RoadMap

/// Why no route could be planned: each case says what is wrong and what to do.
public enum RoutingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A coordinate outside −90…90 / −180…180, or not a number.
    case invalidCoordinate(GeoPoint)
    /// No drivable road within `radius` metres of the point.
    case noRoadNear(GeoPoint, radius: Double)
    /// No legal way from one point to the next (one-way streets, turn restrictions or a road
    /// network in separate pieces); `leg` counts from 1.
    case unreachable(leg: Int, from: GeoPoint, to: GeoPoint)
    /// The search stopped after visiting `limit` links without reaching the destination.
    case searchLimitReached(leg: Int, limit: Int)
    /// The map could not be read while planning (a damaged tile, a file gone); the reason.
    case mapUnreadable(String)
    /// A proposal was accepted or rejected while none is pending.
    case noProposal

    public var description: String {
        switch self {
        case .invalidCoordinate(let point):
            return
                "\(point.latitude),\(point.longitude) is not a coordinate: latitude must lie within −90…90 and longitude within −180…180 (decimal degrees, LAT,LON)"
        case .noRoadNear(let point, let radius):
            return
                "no drivable road within \(Int(radius)) m of \(point.latitude),\(point.longitude): is the point on this map? (adasis map info shows its area)"
        case .unreachable(let leg, let from, let to):
            return
                "leg \(leg): no legal route from \(from.latitude),\(from.longitude) to \(to.latitude),\(to.longitude) (one-way streets, turn restrictions or a road network cut by the extract's edge)"
        case .mapUnreadable(let reason):
            return "the map could not be read while planning: \(reason)"
        case .noProposal:
            return
                "there is no route proposal to accept or reject: proposals come with manual acceptance, and end when accepted, rejected, decided by steering or replaced"
        case .searchLimitReached(let leg, let limit):
            return
                "leg \(leg): gave up after visiting \(limit) links without reaching the destination; raise the limit for routes this long"
        }
    }
}

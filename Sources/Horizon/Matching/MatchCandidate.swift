import Foundation
import GNSS
import RoadMap

/// One hidden state of the matcher: the vehicle on a directed link at an offset.
struct MatchCandidate: Hashable, Sendable {
    /// The link and the driving direction.
    var link: DirectedLink
    /// Metres from the entry of `link` in the driving direction, `0...length`.
    var offset: Double
    /// ``offset`` before clamping to the link: negative when the fix lies before the entry of the
    /// link, more than ``length`` when it lies past the exit (measured along the end segment).
    var measuredOffset: Double
    /// Length of the link, metres.
    var length: Double
    /// The fix projected onto the link.
    var point: GeoPoint
    /// Distance from the fix to `point`, metres.
    var distance: Double
    /// Bearing of the link at `point` in the driving direction, degrees.
    var bearing: Double
    /// Log emission probability (unnormalised).
    var emission: Double

    /// The position this candidate stands for.
    func position(confidence: Double) -> MatchedPosition {
        MatchedPosition(link: link, offset: offset, point: point, confidence: confidence)
    }
}

/// Candidate generation and emission scoring for one fix.
struct CandidateSearch {
    /// Tuning.
    var configuration: MatcherConfiguration

    /// Log emission: Gaussian on the distance to the road, plus heading agreement when moving
    /// (``candidates(for:sigma:network:directionSettled:)`` subtracts
    /// ``MatcherConfiguration/serviceRoadPenalty`` on service roads). While the driving direction
    /// is not settled (`directionSettled` false: no fix fast enough for its heading to count has
    /// come since the matcher started), the heading of a slower fix counts with
    /// ``MatcherConfiguration/standstillHeadingWeight``.
    func emission(distance: Double, sigma: Double, linkBearing: Double, fix: GNSSFix, directionSettled: Bool = true)
        -> Double
    {
        let z = distance / sigma
        var score = -0.5 * z * z
        guard let heading = fix.heading else { return score }
        let weight: Double
        if let speed = fix.speed, speed > configuration.headingSpeedThreshold {
            weight = configuration.headingWeight
        } else if !directionSettled {
            weight = configuration.standstillHeadingWeight
        } else {
            return score
        }
        let delta = (heading - linkBearing) * .pi / 180
        score -= weight * (1 - cos(delta))
        return score
    }

    /// The candidates for `fix`: every legal travel direction of every link within the search
    /// radius, the closest ``MatcherConfiguration/maximumCandidates`` kept, in a deterministic order.
    /// `directionSettled` as for ``emission(distance:sigma:linkBearing:fix:directionSettled:)``.
    func candidates(for fix: GNSSFix, sigma: Double, network: any RoadNetwork, directionSettled: Bool = true) throws
        -> [MatchCandidate]
    {
        let point = GeoPoint(latitude: fix.latitude, longitude: fix.longitude)
        let radius = configuration.searchRadius(sigma: sigma)
        var result: [MatchCandidate] = []
        for link in try network.links(near: point, radius: radius) {
            guard let projection = link.geometry.project(point), projection.distance <= radius else { continue }
            let along = min(max(projection.offset, 0), link.length)
            let unclamped = Self.unclampedOffset(
                of: point, on: link.geometry, projected: projection.offset,
                length: link.length)
            for direction in [LinkDirection.forward, .backward] where link.oneway.allows(direction) {
                let bearing =
                    direction == .forward
                    ? projection.bearing : (projection.bearing + 180).truncatingRemainder(dividingBy: 360)
                result.append(
                    MatchCandidate(
                        link: DirectedLink(link.id, direction),
                        offset: direction == .forward ? along : link.length - along,
                        measuredOffset: direction == .forward ? unclamped : link.length - unclamped,
                        length: link.length, point: projection.point, distance: projection.distance,
                        bearing: bearing,
                        emission: emission(
                            distance: projection.distance, sigma: sigma, linkBearing: bearing, fix: fix,
                            directionSettled: directionSettled)
                            - (link.highway == .service ? configuration.serviceRoadPenalty : 0))
                )
            }
        }
        if result.count > configuration.maximumCandidates {
            result.sort { ($0.emission, $1.link) > ($1.emission, $0.link) }
            result.removeLast(result.count - configuration.maximumCandidates)
            result.sort { $0.link < $1.link }
        }
        return result
    }

    /// The offset of `point` along `geometry` (forward), extended past the ends along the first
    /// and last segment: a point 3 m beyond the last node on the road's line is at `length + 3`.
    static func unclampedOffset(of point: GeoPoint, on geometry: [GeoPoint], projected: Double, length: Double)
        -> Double
    {
        guard geometry.count >= 2 else { return projected }
        let plane = LocalProjection(origin: point)
        func along(from a: GeoPoint, to b: GeoPoint) -> Double {
            let pa = plane.project(a), pb = plane.project(b)
            let dx = pb.x - pa.x, dy = pb.y - pa.y
            let norm = (dx * dx + dy * dy).squareRoot()
            return norm > 0 ? (-pa.x * dx - pa.y * dy) / norm : 0
        }
        if projected <= 0 {
            return min(0, along(from: geometry[0], to: geometry[1]))
        }
        if projected >= length {
            let n = geometry.count
            let beyond =
                along(from: geometry[n - 2], to: geometry[n - 1]) - geometry[n - 2].distance(to: geometry[n - 1])
            return length + max(0, beyond)
        }
        return projected
    }
}

import RoadMap

/// A place on a directed link where a location reference point may lie, with its score.
struct Candidate: Hashable, Sendable {
    /// The directed link.
    var link: DirectedLink
    /// Metres from the link's entry (in its direction) to the projected point.
    var offset: Double
    /// The link's length in metres.
    var length: Double
    /// 0 ... 1, higher is better.
    var score: Double
}

extension LineLocationDecoder {
    /// The best candidates for point `index` of `points`, best first (ties by directed link).
    func candidates(for index: Int, of points: [LocationReferencePoint]) throws -> [Candidate] {
        let point = points[index]
        let last = index == points.count - 1
        var result: [Candidate] = []
        for link in try network.links(near: point.coordinate, radius: parameters.searchRadius) {
            guard let projection = link.geometry.project(point.coordinate) else { continue }
            let classScore = 1 - Double(abs(Int(point.functionalRoadClass) - Int(link.openLRFunctionalRoadClass))) / 7
            let formScore = formMatch(point.formOfWay, OpenLRFormOfWay(link.formOfWay))
            let distanceScore = max(0, 1 - projection.distance / parameters.searchRadius)
            for direction in [LinkDirection.forward, .backward] where link.oneway.allows(direction) {
                var offset = direction == .forward ? projection.offset : link.length - projection.offset
                // Points lie at junctions, off by the coordinates' rounding: snap to the link's
                // ends, and leave out the end a location cannot start (or finish) at.
                if offset <= min(parameters.nodeSnapDistance, link.length / 2) {
                    offset = 0
                } else if offset >= link.length - parameters.nodeSnapDistance {
                    offset = link.length
                }
                if link.length > 0, offset == (last ? 0 : link.length) { continue }
                let bearing = link.openLRBearing(
                    direction, at: offset, distance: parameters.bearingDistance, backward: last)
                let difference = bearingDifference(bearing, point.bearing)
                guard difference <= parameters.maximumBearingDifference else { continue }
                let score =
                    parameters.distanceWeight * distanceScore + parameters.bearingWeight * (1 - difference / 180)
                    + parameters.classWeight * classScore + parameters.formWeight * formScore
                guard score >= parameters.minimumScore else { continue }
                result.append(
                    Candidate(link: DirectedLink(link.id, direction), offset: offset, length: link.length, score: score)
                )
            }
        }
        result.sort { $0.score > $1.score || ($0.score == $1.score && $0.link < $1.link) }
        return Array(result.prefix(parameters.candidatesPerPoint))
    }

    private func formMatch(_ a: OpenLRFormOfWay, _ b: OpenLRFormOfWay) -> Double {
        if a == b { return 1 }
        if a == .undefined || b == .undefined || a == .other || b == .other { return 0.5 }
        return 0
    }
}

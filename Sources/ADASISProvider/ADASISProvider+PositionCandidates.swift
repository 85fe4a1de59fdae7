import ADASISv2
import Horizon
import RoadMap

extension ADASISProvider {
    /// Most heading difference, degrees, between the matched road and another candidate's road
    /// for the two to count as parallel roads.
    static let parallelHeadingTolerance = 30.0

    /// Hands over the matcher's candidates for the fix last given to ``ingest(fix:match:tree:vehicleOffset:events:routeActive:)``
    /// (`OnlineMapMatcher.candidatePositions`), most probable first. While the matcher is unsure
    /// between parallel roads, every POSITION cycle then carries the matched position as
    /// PositionIndex 0 and up to ``ProviderConfiguration/maximumPositionCandidates`` − 1 others
    /// (PositionIndex 1…3), as ADASIS v2 allows. The candidates on a parallel road of a side path
    /// are placed on it here, once for the fix (the tree is the fix's); each tick then checks only
    /// what the bus changes (the path announced and sent past the candidate). The next ingest
    /// forgets them.
    public func offerPositionCandidates(_ candidates: [MatchedPosition]) {
        positionCandidates = []
        guard configuration.maximumPositionCandidates > 1, configuration.messages.sends(.position),
            let matched = match.state.position, let matchedHeading = heading(of: matched)
        else { return }
        // The side paths by level, then identifier, sorted once for every candidate of this fix.
        lazy var sidePaths = tree.sortedPaths.filter { $0.parent != nil }.sorted {
            ($0.level, $0.id) < ($1.level, $1.id)
        }
        for candidate in candidates {
            guard candidate.confidence >= configuration.minimumPositionCandidateProbability,
                candidate.link != matched.link, candidate.link != matched.link.reversed,
                let heading = heading(of: candidate),
                abs(Self.headingDifference(heading, matchedHeading)) <= Self.parallelHeadingTolerance,
                tree.mainPath?.links.contains(where: { $0.link == candidate.link }) != true,
                let (pathID, offset) = Self.pathOffset(of: candidate, among: sidePaths)
            else { continue }
            positionCandidates.append(
                PlacedPositionCandidate(pathID: pathID, offset: offset, confidence: candidate.confidence))
        }
    }

    /// A candidate of the matcher on a road parallel to the matched one, on a side path.
    struct PlacedPositionCandidate {
        /// The side path holding the candidate's link.
        var pathID: PathID
        /// The candidate's offset on that path, metres.
        var offset: Double
        /// The matcher's posterior probability of the candidate.
        var confidence: Double
    }

    /// The alternative POSITIONs (PositionIndex 1…3) of this tick, the vehicle being at `vehicle` on
    /// the main path: the matcher's other candidates with posterior probability at least
    /// ``ProviderConfiguration/minimumPositionCandidateProbability``, on a road other than the
    /// matched one (not its reverse either) whose heading is within
    /// ``parallelHeadingTolerance`` of it, not on the main path, and on a side path the receiver
    /// holds (its opening STUB gone out in an earlier tick — POSITIONs go before content within a
    /// tick —, sent past the candidate, its branch not purged behind the vehicle); dead-reckoned
    /// like the matched position. Each is `primary`, this tick's POSITION, on another path.
    func alternativePositionMessages(vehicle: Double, primary: PositionMessage) -> [PositionMessage] {
        guard !positionCandidates.isEmpty, let fixOffset else { return [] }
        let shift = vehicle - fixOffset
        var result: [PositionMessage] = []
        for candidate in positionCandidates {
            if result.count + 1 >= configuration.maximumPositionCandidates { break }
            guard let index = indexOfPath[candidate.pathID], announcedPaths.contains(candidate.pathID),
                let sent = sentUpTo[candidate.pathID], candidate.offset <= sent,
                let path = tree.paths[candidate.pathID], receiverKeeps(candidate.pathID, vehicle: vehicle)
            else { continue }
            var message = primary
            message.positionIndex = UInt8(result.count + 1)
            message.pathIndex = index
            message.offset = PathOffset.wrapped(
                Int(min(max(candidate.offset + shift, path.startOffset), path.endOffset).rounded()))
            message.positionProbability = ValueCoding.probabilityCode(percent: candidate.confidence * 100)
            message.relativeHeading = 254
            result.append(message)
        }
        return result
    }

    /// Whether a receiver still holds side path `pathID` with the vehicle at `vehicle`: it drops a
    /// sub-path (and its subtree) once the sub-path's branch lies more than the trailing length
    /// behind the vehicle (ADASIS v2 purging), so a path whose branch, or an ancestor's, lies
    /// there may be gone although it runs on beside the vehicle.
    private func receiverKeeps(_ pathID: PathID, vehicle: Double) -> Bool {
        let line = vehicle - configuration.trailingLength
        var current = tree.paths[pathID]
        while let path = current, let parent = path.parent {
            if let branch = path.branchOffset, branch < line { return false }
            current = tree.paths[parent]
        }
        return true
    }

    /// The first of `sidePaths` holding `position`'s link, and the offset there.
    private static func pathOffset(of position: MatchedPosition, among sidePaths: [HorizonPath]) -> (PathID, Double)? {
        for path in sidePaths {
            if let link = path.links.first(where: { $0.link == position.link }) {
                return (path.id, link.startOffset + min(max(position.offset, 0), link.length))
            }
        }
        return nil
    }

    /// The driving direction at `position`, degrees clockwise from north.
    private func heading(of position: MatchedPosition) -> Double? {
        guard let road = roadLink(position.link.link) else { return nil }
        let geometry = position.link.direction == .forward ? road.geometry : road.geometry.reversed()
        return geometry.point(atOffset: position.offset)?.bearing
    }

    /// `a − b` in degrees, in `(-180, 180]`.
    static func headingDifference(_ a: Double, _ b: Double) -> Double {
        var difference = (a - b).truncatingRemainder(dividingBy: 360)
        if difference > 180 { difference -= 360 }
        if difference <= -180 { difference += 360 }
        return difference
    }
}

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
    /// (PositionIndex 1…3), as ADASIS v2 allows. The next ingest forgets them.
    public func offerPositionCandidates(_ candidates: [MatchedPosition]) {
        positionCandidates = candidates
    }

    /// The alternative POSITIONs (PositionIndex 1…3) at `time`, the vehicle being at `vehicle` on
    /// the main path: the matcher's other candidates with posterior probability at least
    /// ``ProviderConfiguration/minimumPositionCandidateProbability``, on a road other than the
    /// matched one (not its reverse either) whose heading is within
    /// ``parallelHeadingTolerance`` of it, not on the main path, and on a side path the receiver
    /// holds (its opening STUB gone out in an earlier tick — POSITIONs go before content within a
    /// tick —, sent past the candidate, its branch not purged behind the vehicle); dead-reckoned
    /// like the matched position. Each is `primary`, this tick's POSITION, on another path.
    func alternativePositionMessages(at time: Double, vehicle: Double, primary: PositionMessage) -> [PositionMessage] {
        guard configuration.maximumPositionCandidates > 1, configuration.messages.sends(.position),
            let matched = match.state.position, let fixOffset, !positionCandidates.isEmpty,
            let matchedHeading = heading(of: matched)
        else { return [] }
        let shift = vehicle - fixOffset
        var result: [PositionMessage] = []
        for candidate in positionCandidates {
            if result.count + 1 >= configuration.maximumPositionCandidates { break }
            guard candidate.confidence >= configuration.minimumPositionCandidateProbability,
                candidate.link != matched.link, candidate.link != matched.link.reversed,
                let heading = heading(of: candidate),
                abs(Self.headingDifference(heading, matchedHeading)) <= Self.parallelHeadingTolerance,
                let (pathID, offset) = pathOffset(of: candidate), let index = indexOfPath[pathID],
                announcedPaths.contains(pathID), let sent = sentUpTo[pathID], offset <= sent,
                let path = tree.paths[pathID], receiverKeeps(pathID, vehicle: vehicle)
            else { continue }
            var message = primary
            message.positionIndex = UInt8(result.count + 1)
            message.pathIndex = index
            message.offset = PathOffset.wrapped(
                Int(min(max(offset + shift, path.startOffset), path.endOffset).rounded()))
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

    /// The side path holding `position`'s link (by level, then identifier) and the offset there;
    /// `nil` on the main path (a candidate along the vehicle's own path is no other road).
    private func pathOffset(of position: MatchedPosition) -> (PathID, Double)? {
        if tree.mainPath?.links.contains(where: { $0.link == position.link }) == true { return nil }
        for path in tree.sortedPaths.sorted(by: { ($0.level, $0.id) < ($1.level, $1.id) }) where path.parent != nil {
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

import ADASISv2
import Horizon
import RoadMap

extension ADASISProvider {
    /// POSITION at `time`: on the main path at the dead-reckoned offset, or path index 0
    /// (unknown: no fix, GNSS stale) / 2 (not on a road of the map).
    func positionMessage(at time: Double, vehicle: Double?) -> PositionMessage {
        let age = fix.map { (time - $0.time) * 1000 } ?? .infinity
        var message = PositionMessage(
            offset: PathOffset.invalid, pathIndex: 0, positionProbability: 0,
            positionAge: age.isFinite ? ValueCoding.positionAgeCode(milliseconds: age) : 511)
        if let speed = fix?.speed { message.speed = ValueCoding.speedCode(metresPerSecond: speed) }
        message.positionConfidence = Self.confidenceCode(fix?.horizontalAccuracy)
        guard let vehicle else {
            if case .offRoad(let point) = match.state, age <= configuration.positionStaleAfter * 1000 {
                message.pathIndex = isDigitised(point) ? 2 : 1
            }
            return message
        }
        guard let main = mainPath, let index = indexOfPath[main.id],
            let position = match.state.position
        else { return message }
        message.pathIndex = index
        message.offset = PathOffset.wrapped(Int(vehicle.rounded()))
        message.positionProbability = ValueCoding.probabilityCode(percent: position.confidence * 100)
        if let linkIndex = main.linkIndex(at: vehicle) {
            let link = main.links[linkIndex]
            if let heading = fix?.heading, let bearing = pathBearing(link, at: vehicle - link.startOffset) {
                var relative = (heading - bearing).truncatingRemainder(dividingBy: 360)
                if relative < 0 { relative += 360 }
                message.relativeHeading = ValueCoding.angleCode(degrees: relative)
            } else {
                message.relativeHeading = 254
            }
            if link.attributes.lanes == 1 { message.currentLane = .singleLaneRoad }
        }
        return message
    }

    /// Whether `point` lies in the map's area (always, when the area is not configured).
    private func isDigitised(_ point: GeoPoint) -> Bool {
        guard let area = configuration.digitisedArea, area.count == 4 else { return true }
        return (area[0]...area[2]).contains(point.latitude) && (area[1]...area[3]).contains(point.longitude)
    }

    /// Bearing of the path at `along` metres into `link`, degrees. The segments of the link are
    /// kept while the vehicle stays on it (``LinkSegmentBearings``).
    private func pathBearing(_ link: PathLink, at along: Double) -> Double? {
        if positionLinkBearings?.link != link.link {
            guard let road = roadLink(link.link.link) else { return nil }
            let geometry = link.link.direction == .forward ? road.geometry : road.geometry.reversed()
            positionLinkBearings = LinkSegmentBearings(link: link.link, geometry: geometry)
        }
        return positionLinkBearings?.bearing(atOffset: along)
    }

    /// PositionConfidence from the horizontal accuracy: 0 best (< 2 m) … 6 worst (≥ 100 m), 7 N/A.
    static func confidenceCode(_ accuracy: Double?) -> UInt8 {
        guard let accuracy, accuracy.isFinite, accuracy >= 0 else { return 7 }
        let limits: [Double] = [2, 5, 10, 20, 50, 100]
        return UInt8(limits.firstIndex { accuracy < $0 } ?? 6)
    }
}

import RoadMap

/// Where the matcher places the vehicle on the road graph at one fix.
///
/// `offset` runs along the driving direction: metres from the point where the vehicle entered
/// `link` (its start node for `.forward`, its end node for `.backward`).
public struct MatchedPosition: Hashable, Sendable {
    /// The link and the direction the vehicle drives it in.
    public var link: DirectedLink
    /// Metres from the entry of `link` in the driving direction, `0...link.length`.
    public var offset: Double
    /// The matched point on the link geometry.
    public var point: GeoPoint
    /// Confidence of this match in `0...1` (posterior probability of the chosen candidate).
    public var confidence: Double

    /// Creates a matched position.
    public init(link: DirectedLink, offset: Double, point: GeoPoint, confidence: Double) {
        self.link = link
        self.offset = offset
        self.point = point
        self.confidence = confidence
    }
}

/// The matcher's verdict for one fix: what the horizon engine and the provider act on.
public enum MatchState: Hashable, Sendable {
    /// No usable fix yet, or GNSS lost: position unknown.
    case unknown
    /// On a road of the map.
    case onRoad(MatchedPosition)
    /// Away from every road of the map (car park, road not in the map); `point` is the fix.
    case offRoad(point: GeoPoint)

    /// The matched position when on road.
    public var position: MatchedPosition? {
        if case .onRoad(let position) = self { return position }
        return nil
    }

    /// Short name for CSV and logs: `unknown`, `on_road`, `off_road`.
    public var name: String {
        switch self {
        case .unknown: return "unknown"
        case .onRoad: return "on_road"
        case .offRoad: return "off_road"
        }
    }
}

/// The result of matching one fix.
public struct MatchResult: Hashable, Sendable {
    /// Time of the fix, seconds on the trace's time line.
    public var time: Double
    /// Where the vehicle is.
    public var state: MatchState
    /// True when this fix broke continuity with the previous match (a jump, a recovery from
    /// off-road, the first fix): whoever keeps a horizon must start a new one.
    public var discontinuity: Bool

    /// Creates a match result.
    public init(time: Double, state: MatchState, discontinuity: Bool) {
        self.time = time
        self.state = state
        self.discontinuity = discontinuity
    }
}

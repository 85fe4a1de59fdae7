import ADASISv2
import RoadMap

/// The traffic speed of each directed link, as the traffic-speed profile (PROFILE SHORT,
/// system-specific 21) sends it along the paths: what a traffic layer knows at one time, links it
/// does not name being ``ADASISv2/TrafficSpeed/noData``.
public struct TrafficSpeedTable: Hashable, Sendable {
    /// The speed or closure of the links the layer names.
    public var speeds: [DirectedLink: TrafficSpeed]

    /// A table of `speeds`; an empty table says "no data" on every link (an expired layer).
    public init(_ speeds: [DirectedLink: TrafficSpeed] = [:]) {
        self.speeds = speeds
    }

    /// The traffic speed on `link`: its entry, or no data.
    public func speed(on link: DirectedLink) -> TrafficSpeed { speeds[link] ?? .noData }
}

extension ADASISProvider {
    /// Puts `table` in force for the traffic-speed profile. From the first call on, every path
    /// carries a traffic-speed spot at the start of each link (when the message selection sends
    /// ``ADASISv2/ProfileShortType/trafficSpeed``); without a call nothing of it is sent, so the
    /// stream without traffic is unchanged. Spots already sent whose value changed go again with
    /// Update = 1; an expired layer is an empty table (every link "no data"), not the end of the
    /// profile, so receivers drop their old speeds.
    public func setTrafficSpeeds(_ table: TrafficSpeedTable) {
        guard table != trafficSpeeds else { return }
        trafficSpeeds = table
        for id in tree.paths.keys { dirtyFrom[id] = -.infinity }
        // Side paths that rest (sent up to their frontier) must be visited again for the changes.
        visitOrder.wakeAll()
    }
}

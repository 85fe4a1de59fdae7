import Foundation
import RoadMap

/// What traffic does on one directed link at one time, for the horizon's traffic-speed profile.
public enum LinkSpeed: Hashable, Sendable {
    /// Traffic moves at this speed, km/h.
    case kilometresPerHour(Double)
    /// No traffic may enter the link.
    case closed
}

extension TrafficLayer {
    /// The traffic speed of every directed link the layer knows at `time`: its flow's current
    /// speed (the slowest record where records overlap), closed where a flow record closes the
    /// road or an incident in force at `time` closes it. Empty once the layer has expired.
    public func linkSpeeds(at time: Date) -> [DirectedLink: LinkSpeed] {
        guard isValid(at: time) else { return [:] }
        var speeds: [DirectedLink: LinkSpeed] = [:]
        for (link, entry) in flow {
            speeds[link] = entry.closed ? .closed : .kilometresPerHour(entry.currentSpeed)
        }
        for incident in incidents(at: time) where incident.record.roadClosed {
            for link in incident.line.links { speeds[link] = .closed }
        }
        return speeds
    }
}

import ADASISProvider
import ADASISv2
import RoadMap
import Traffic

extension TrafficSpeedTable {
    /// The traffic-speed profile's table of a traffic layer's link speeds
    /// (``Traffic/TrafficLayer/linkSpeeds(at:)``): a speed in km/h or closed per directed link.
    public init(_ speeds: [DirectedLink: LinkSpeed]) {
        self.init(
            speeds.mapValues { (speed: LinkSpeed) -> TrafficSpeed in
                switch speed {
                case .kilometresPerHour(let value): TrafficSpeed.kilometresPerHour(value)
                case .closed: TrafficSpeed.closed
                }
            })
    }
}

/// A change of the traffic speed along a rebuilt path.
public struct TrafficSpeedChange: Hashable, Sendable {
    /// Absolute offset on the path, metres, from which the speed holds.
    public var offset: Int
    /// The speed, closure or lack of data from there on.
    public var speed: TrafficSpeed
}

extension ReconstructedPath {
    /// The traffic speed at absolute `offset`: the last traffic-speed spot (PROFILE SHORT 21) at
    /// or before it, decoded; `nil` before the first spot or when none was received.
    public func trafficSpeed(at offset: Int) -> TrafficSpeed? {
        spot(.short(.trafficSpeed), at: offset).map {
            ValueCoding.trafficSpeed(code: UInt16(truncatingIfNeeded: $0.value))
        }
    }

    /// The traffic-speed profile as received, reduced to where the value changes, by offset.
    public var trafficSpeedChanges: [TrafficSpeedChange] {
        var changes: [TrafficSpeedChange] = []
        for (offset, spot) in (profiles[.short(.trafficSpeed)] ?? [:]).sorted(by: { $0.key < $1.key }) {
            let speed = ValueCoding.trafficSpeed(code: UInt16(truncatingIfNeeded: spot.value))
            if changes.last?.speed != speed { changes.append(TrafficSpeedChange(offset: offset, speed: speed)) }
        }
        return changes
    }
}

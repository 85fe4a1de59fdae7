import RoadMap

/// What a route costs: travel time on each link from its speed limit (or its road class where it
/// has none), plus a penalty for each turn and each set of traffic signals. `Docs/routing-model.md`
/// explains the numbers.
public struct RouteCostModel: Hashable, Sendable {
    /// Speed in km/h assumed on a road of this class when its limit is unknown.
    public var speedsByClass: [HighwayClass: Double]
    /// Speed in km/h assumed where the limit is `none` (an unlimited motorway).
    public var unlimitedSpeed: Double
    /// The share of the speed limit a car averages on a free road (acceleration, curves, merging).
    public var speedLimitShare: Double
    /// Seconds lost at each traffic-signal node a link carries in the direction driven. OSM maps
    /// about two signal nodes per signalled crossing a route passes (one per carriageway or
    /// approach: in the sample map 140 of 160 signal nodes have another within 30 m), so 6 s a
    /// node is ≈ 12 s a junction, the mean wait of a fixed-time signal with a third of its cycle red.
    public var signalPenalty: Double
    /// Seconds for a turn across the oncoming traffic (left in right-hand traffic).
    public var crossingTurnPenalty: Double
    /// Seconds for a turn that does not cross the oncoming traffic (right in right-hand traffic).
    public var nearSideTurnPenalty: Double
    /// Seconds for turning back on the same road (a U-turn), when the map allows it at all.
    public var uTurnPenalty: Double
    /// Changes of heading up to this many degrees count as going straight on (no penalty).
    public var straightAngle: Double
    /// Whether traffic keeps right (Finland, Germany, the United States) or left (the UK, Japan).
    public var keepsRight: Bool

    /// The defaults documented in `Docs/routing-model.md`.
    public init(
        speedsByClass: [HighwayClass: Double] = RouteCostModel.defaultSpeedsByClass,
        unlimitedSpeed: Double = 130, speedLimitShare: Double = 0.9, signalPenalty: Double = 6,
        crossingTurnPenalty: Double = 8, nearSideTurnPenalty: Double = 4, uTurnPenalty: Double = 40,
        straightAngle: Double = 30, keepsRight: Bool = true
    ) {
        self.speedsByClass = speedsByClass
        self.unlimitedSpeed = unlimitedSpeed
        self.speedLimitShare = speedLimitShare
        self.signalPenalty = signalPenalty
        self.crossingTurnPenalty = crossingTurnPenalty
        self.nearSideTurnPenalty = nearSideTurnPenalty
        self.uTurnPenalty = uTurnPenalty
        self.straightAngle = straightAngle
        self.keepsRight = keepsRight
    }

    /// Typical speeds in km/h by road class where no limit is mapped.
    public static let defaultSpeedsByClass: [HighwayClass: Double] = [
        .motorway: 110, .motorwayLink: 60, .trunk: 90, .trunkLink: 50, .primary: 60, .primaryLink: 40,
        .secondary: 50, .secondaryLink: 40, .tertiary: 40, .tertiaryLink: 30, .unclassified: 40,
        .residential: 30, .livingStreet: 10, .service: 15,
    ]

    /// The fastest speed, in metres per second, this model assumes anywhere: the bound that keeps
    /// the planner's straight-line estimate of the remaining time a true lower bound.
    public var fastestSpeed: Double {
        let fastest = max(unlimitedSpeed, speedsByClass.values.max() ?? 0, 150)
        return fastest / 3.6
    }

    /// The speed in km/h driven on `link` in `direction`: a share of a posted limit; the lower of
    /// an implicit (legal default) limit and the class speed, since a car park aisle is not driven
    /// at the town's 50 km/h default; the class speed where no limit is known.
    public func speed(on link: RoadLink, _ direction: LinkDirection) -> Double {
        let attributes = direction == .forward ? link.forward : link.backward
        let classSpeed = speedsByClass[link.highway] ?? 30
        switch attributes.speedLimit.value {
        case .kilometresPerHour(let limit) where limit > 0 && attributes.speedLimit.kind == .implicit:
            return min(limit * speedLimitShare, classSpeed)
        case .kilometresPerHour(let limit) where limit > 0: return min(limit * speedLimitShare, fastestSpeed * 3.6)
        case .unlimited: return unlimitedSpeed
        default: return classSpeed
        }
    }

    /// Seconds to drive the whole of `link` in `direction`, signals included.
    public func travelTime(on link: RoadLink, _ direction: LinkDirection) -> Double {
        drivingTime(on: link, direction) + Double(signals(on: link, direction)) * signalPenalty
    }

    /// Seconds to drive the whole of `link` in `direction` at the model's speed, without stops.
    public func drivingTime(on link: RoadLink, _ direction: LinkDirection) -> Double {
        link.length / max(speed(on: link, direction) / 3.6, 0.5)
    }

    /// The sets of traffic signals `link` carries for traffic in `direction`.
    public func signals(on link: RoadLink, _ direction: LinkDirection) -> Int {
        link.features.count { $0.kind == .trafficSignals && ($0.direction == nil || $0.direction == direction) }
    }

    /// Seconds lost turning from a heading of `arrival` degrees onto a heading of `departure`.
    public func turnPenalty(arrival: Double, departure: Double) -> Double {
        var change = (departure - arrival).truncatingRemainder(dividingBy: 360)
        if change > 180 { change -= 360 }
        if change <= -180 { change += 360 }
        let magnitude = abs(change)
        if magnitude <= straightAngle { return 0 }
        if magnitude >= 170 { return uTurnPenalty }
        let turnsRight = change > 0
        return turnsRight == keepsRight ? nearSideTurnPenalty : crossingTurnPenalty
    }
}

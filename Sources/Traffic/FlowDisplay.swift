/// How a flow overlay shows a link's speeds (the four modes of TomTom's Maps SDK, summarised in
/// Docs/traffic-feed.md).
public enum FlowDisplayMode: String, Hashable, Sendable, CaseIterable {
    /// By the measured speed in km/h, whatever the road's free-flow speed.
    case absolute
    /// By the current speed as a share of free flow (the default).
    case relative
    /// As ``relative``, but only where the current speed is below free flow.
    case relativeDelay = "relative-delay"
    /// As ``relative``, with wider bands: fewer changes of shade along a road.
    case reducedSensitivity = "reduced-sensitivity"
}

/// The shade a link gets in a flow overlay.
public enum FlowShade: Hashable, Sendable, CustomStringConvertible {
    /// Nothing shown.
    case hidden
    /// Closed to traffic.
    case closed
    /// A band of the relative speed (current / free flow), slowest first.
    case relative(RelativeFlowBand)
    /// A band of the absolute speed: the band's lower end in km/h (0, 20, 40, 60, 80, 100, 120).
    case absolute(fromKilometresPerHour: Int)

    public var description: String {
        switch self {
        case .hidden: return "-"
        case .closed: return "closed"
        case .relative(let band): return "\(band)"
        case .absolute(let from): return "≥\(from) km/h"
        }
    }
}

/// Bands of the relative speed, slowest first.
public enum RelativeFlowBand: Int, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Below 15 % of free flow.
    case stationary
    /// 15 % to 40 %.
    case queuing
    /// 40 % to 65 %.
    case slow
    /// 65 % to 85 %.
    case light
    /// 85 % and more.
    case free

    public static func < (a: RelativeFlowBand, b: RelativeFlowBand) -> Bool { a.rawValue < b.rawValue }
    public var description: String { ["stationary", "queuing", "slow", "light", "free"][rawValue] }
}

extension FlowDisplayMode {
    /// The shade of a link with `flow` in this mode: a pure function of its speeds and closure.
    ///
    /// - relative: bands at 15, 40, 65, 85 % of free flow;
    /// - relative-delay: the same, hidden in the free band;
    /// - reduced-sensitivity: bands at 10, 30 and 60 % (stationary, queuing, slow) and free above:
    ///   the light band is folded into free;
    /// - absolute: 20 km/h bands of the current speed, capped at 120.
    public func shade(of flow: LinkFlow) -> FlowShade {
        if flow.closed { return .closed }
        let ratio = flow.currentSpeed / flow.freeFlowSpeed
        switch self {
        case .absolute:
            return .absolute(fromKilometresPerHour: min(120, Int(flow.currentSpeed / 20) * 20))
        case .relative:
            return .relative(Self.band(ratio, limits: [0.15, 0.40, 0.65, 0.85]))
        case .relativeDelay:
            let band = Self.band(ratio, limits: [0.15, 0.40, 0.65, 0.85])
            return band == .free ? .hidden : .relative(band)
        case .reducedSensitivity:
            let band = Self.band(ratio, limits: [0.10, 0.30, 0.60, 0.60])
            return .relative(band)
        }
    }

    private static func band(_ ratio: Double, limits: [Double]) -> RelativeFlowBand {
        for (index, limit) in limits.enumerated() where ratio < limit { return RelativeFlowBand(rawValue: index)! }
        return .free
    }
}

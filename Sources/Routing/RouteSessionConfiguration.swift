/// How a ``RouteSession`` replans. The defaults are TomTom's (`../shared/docs/replanning.md`).
public struct RouteSessionConfiguration: Hashable, Sendable {
    /// What happens when the vehicle leaves the route.
    public enum DeviationReplanning: String, Hashable, Sendable, CaseIterable {
        /// Plan a new route from where the vehicle is (the default).
        case automatic
        /// Keep the route and report the deviation; the client supplies a new route, and the
        /// horizon falls back to prediction meanwhile.
        case none
    }

    /// What happens on a deviation.
    public var deviationReplanning: DeviationReplanning
    /// Whether the active route is refreshed periodically (`false`: no periodic replanning).
    public var routeUpdates: Bool
    /// Seconds between refreshes of the active route.
    public var replanInterval: Double
    /// Consecutive matched fixes off the route before it counts as a deviation (one fix on a
    /// parallel road is more often a matching slip than a turn).
    public var offRouteFixes: Int
    /// A fix matched off the route but within this many metres of the route's links around the
    /// vehicle does not count towards a deviation: with 5 m of GNSS noise the matcher slips onto
    /// the other carriageway or a side street at a junction, and the route should survive that. A
    /// vehicle that really turned off is beyond it within a few seconds. 0 turns the check off.
    public var offRouteDistance: Double
    /// For an imported route: how far ahead of where the vehicle left it, in metres, the new route
    /// rejoins it after the first deviation; doubled after each further one.
    public var rejoinCutoff: Double
    /// When failed plans are tried again.
    public var retry: RetryPolicy
    /// What happens to a better route found at a periodic replan.
    public var acceptance: ProposalAcceptance
    /// Seconds a new route must save over the rest of the active one to count as better (5 min).
    public var minTimeDifference: Double
    /// Seconds of traffic delay on the rest of the active route from which any faster route that
    /// has less delay counts as better, however little it saves (10 min).
    public var minTrafficDelay: Double

    /// Creates a configuration.
    public init(
        deviationReplanning: DeviationReplanning = .automatic, routeUpdates: Bool = true, replanInterval: Double = 300,
        offRouteFixes: Int = 2, rejoinCutoff: Double = 1000, retry: RetryPolicy = RetryPolicy(),
        acceptance: ProposalAcceptance = .automatic, minTimeDifference: Double = 300, minTrafficDelay: Double = 600,
        offRouteDistance: Double = 15
    ) {
        self.offRouteDistance = offRouteDistance
        self.acceptance = acceptance
        self.minTimeDifference = minTimeDifference
        self.minTrafficDelay = minTrafficDelay
        self.deviationReplanning = deviationReplanning
        self.routeUpdates = routeUpdates
        self.replanInterval = replanInterval
        self.offRouteFixes = offRouteFixes
        self.rejoinCutoff = rejoinCutoff
        self.retry = retry
    }
}

/// What a ``RouteSession`` does with a better route found at a periodic replan
/// (TomTom's `BetterProposalAcceptanceMode`).
public enum ProposalAcceptance: String, Hashable, Sendable, CaseIterable {
    /// The better route replaces the active one (the default).
    case automatic
    /// The better route is proposed; the client accepts or rejects it, or the driver decides by
    /// steering onto it or staying on the active route.
    case manual
    /// The better route replaces the active one only when that route is blocked; otherwise it is
    /// proposed, as in ``manual``.
    case unreachableOnly = "unreachable_only"
}

/// Growing delays between tries of a failed plan: `initialDelay × factor^(n − 1)` after the n-th
/// failure, never more than `maximumDelay` (10 s by default, as TomTom's default policy).
public struct RetryPolicy: Hashable, Sendable {
    /// Seconds before the first retry.
    public var initialDelay: Double
    /// Growth of the delay from one retry to the next.
    public var factor: Double
    /// The longest delay.
    public var maximumDelay: Double

    /// Creates a policy.
    public init(initialDelay: Double = 1, factor: Double = 2, maximumDelay: Double = 10) {
        self.initialDelay = initialDelay
        self.factor = factor
        self.maximumDelay = maximumDelay
    }

    /// Seconds to wait after `failures` failed tries in a row (at least one).
    public func delay(afterFailures failures: Int) -> Double {
        var delay = initialDelay
        for _ in 1..<max(failures, 1) { delay *= factor; if delay >= maximumDelay { break } }
        return min(delay, maximumDelay)
    }
}

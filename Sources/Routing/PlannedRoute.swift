import Foundation
import RoadMap

/// A planned route: its legs between the requested points, the links to drive, length and time.
public struct PlannedRoute: Hashable, Sendable {
    /// The part of a route between two consecutive requested points.
    public struct Leg: Hashable, Sendable {
        /// Where the leg starts.
        public var from: RouteEndpoint
        /// Where it ends.
        public var to: RouteEndpoint
        /// The directed links driven, from the one `from` lies on to the one `to` lies on.
        public var links: [DirectedLink]
        /// Seconds of driving, turns and signals included, under the planner's cost model.
        public var duration: Double
        /// Metres driven, from the placed start point to the placed end point.
        public var length: Double
        /// Where the duration goes: driving, waiting at signals, turning.
        public var breakdown: CostBreakdown

        /// Creates a leg.
        public init(
            from: RouteEndpoint, to: RouteEndpoint, links: [DirectedLink], duration: Double, length: Double,
            breakdown: CostBreakdown
        ) {
            self.from = from
            self.to = to
            self.links = links
            self.duration = duration
            self.length = length
            self.breakdown = breakdown
        }
    }

    /// The parts of a leg's duration.
    public struct CostBreakdown: Hashable, Sendable {
        /// Seconds driving at the cost model's speeds.
        public var driving: Double = 0
        /// Seconds waiting at traffic signals.
        public var signals: Double = 0
        /// Seconds lost in turns.
        public var turns: Double = 0
        /// Seconds of traffic delay (``RouteTraffic``).
        public var traffic: Double = 0
        /// Turns that cost something (not straight on).
        public var turnCount: Int = 0
        /// Sets of traffic signals passed.
        public var signalCount: Int = 0

        /// An empty breakdown.
        public init() {}
    }

    /// The legs, in driving order.
    public var legs: [Leg]

    /// Creates a route from its legs.
    public init(legs: [Leg]) { self.legs = legs }

    /// Every directed link to drive, in order; a link where one leg ends and the next starts is
    /// listed once.
    public var links: [DirectedLink] {
        var all: [DirectedLink] = []
        for leg in legs {
            for link in leg.links where all.last != link { all.append(link) }
        }
        return all
    }

    /// For each leg, the index in ``links`` of the link it ends on (where its stop lies).
    public var legEndIndices: [Int] {
        var indices: [Int] = []
        var all: [DirectedLink] = []
        for leg in legs {
            for link in leg.links where all.last != link { all.append(link) }
            indices.append(all.count - 1)
        }
        return indices
    }

    /// Seconds of traffic delay on the whole route.
    public var trafficDelay: Double { legs.reduce(0) { $0 + $1.breakdown.traffic } }

    /// Metres from the origin to the destination.
    public var length: Double { legs.reduce(0) { $0 + $1.length } }

    /// Estimated seconds from the origin to the destination (the ETA, relative to departure).
    public var duration: Double { legs.reduce(0) { $0 + $1.duration } }

    /// The route as text `--route` reads: `#` comment lines with the summary and each leg, then
    /// one directed link per line as `adasis match` prints them.
    public var routeText: String {
        var text =
            "# adasis route: \(Self.format(metres: length)), \(Self.format(seconds: duration)), "
            + "\(legs.count) leg\(legs.count == 1 ? "" : "s"), \(links.count) links\n"
        for (index, leg) in legs.enumerated() {
            text +=
                "# leg \(index + 1): \(leg.from) → \(leg.to): \(Self.format(metres: leg.length)), "
                + "\(Self.format(seconds: leg.duration)) (driving \(Self.format(seconds: leg.breakdown.driving)), "
                + "\(leg.breakdown.signalCount) signals \(Self.format(seconds: leg.breakdown.signals)), "
                + "\(leg.breakdown.turnCount) turns \(Self.format(seconds: leg.breakdown.turns))"
                + (leg.breakdown.traffic > 0 ? ", traffic \(Self.format(seconds: leg.breakdown.traffic))" : "") + ")\n"
        }
        for link in links { text += "\(link)\n" }
        return text
    }

    static func format(metres: Double) -> String {
        metres >= 1000 ? String(format: "%.2f km", metres / 1000) : "\(Int(metres.rounded())) m"
    }

    static func format(seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 60 ? "\(whole / 60) min \(whole % 60) s" : "\(whole) s"
    }
}

import RoadMap

/// What traffic adds to the cost model: a delay on some directed links and the links that are
/// closed (a blockage). The traffic feed (issue 13) fills it; the planner reads it on every search,
/// and a ``RouteSession`` compares routes with it at each periodic replan.
///
/// A delay is charged like the link's own time: in full for a link driven whole, by share for the
/// part of the first and last link a route drives. A closed link is never entered; a route may
/// still leave it when the vehicle is already on it.
public struct RouteTraffic: Hashable, Sendable {
    /// Extra seconds to drive each directed link, on top of the cost model's time.
    public var delays: [DirectedLink: Double]
    /// Directed links no route may enter.
    public var closed: Set<DirectedLink>

    /// No traffic: no delays, nothing closed.
    public init(delays: [DirectedLink: Double] = [:], closed: Set<DirectedLink> = []) {
        self.delays = delays
        self.closed = closed
    }

    /// Seconds of delay on `link` (0 where none is known).
    public func delay(on link: DirectedLink) -> Double { max(delays[link] ?? 0, 0) }

    /// Whether no route may enter `link`.
    public func isClosed(_ link: DirectedLink) -> Bool { closed.contains(link) }

    /// Closes `link` in both directions (a road blocked for all traffic).
    public mutating func close(_ link: LinkID) {
        closed.insert(DirectedLink(link, .forward))
        closed.insert(DirectedLink(link, .backward))
    }
}

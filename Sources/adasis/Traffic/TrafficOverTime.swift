import Foundation
import RoadMap
import Routing
import Traffic

/// The network a drive with `--traffic` reads: the map with the traffic's objects in force at the
/// drive's time laid over it (``TrafficObjectOverlay``). The drive moves it on at each fix
/// (``advance(to:)``): when an incident starts or ends, or the feed expires, the overlay is made
/// again for that time, so an incident that starts mid-drive appears from its start on.
/// Deterministic: the time is the trace's, placed on the feed's clock by the drive's start date.
final class TrafficOverTime: RoadNetwork {
    /// The network underneath (the map, with its custom objects).
    let base: any RoadNetwork
    /// The feed placed on the map.
    let layer: TrafficLayer
    /// The date of trace time 0 (the drive's start date less the first fix's trace time).
    let dateOfTraceZero: Date
    /// The overlay in use.
    private(set) var overlay: TrafficObjectOverlay
    /// The incidents in force in ``overlay``, and whether its congestion is in (the feed valid).
    private(set) var state: State

    /// What an overlay holds: the incidents in force and whether the feed is valid.
    struct State: Equatable {
        var incidents: Set<String>
        var valid: Bool
    }

    /// The layer over `base`, as at trace time `traceTime` (the first fix's), which is `date`.
    init(base: any RoadNetwork, layer: TrafficLayer, traceTime: Double, date: Date) {
        self.base = base
        self.layer = layer
        dateOfTraceZero = date.addingTimeInterval(-traceTime)
        overlay = TrafficObjectOverlay(base: base, layer: layer, at: date)
        state = Self.state(of: layer, at: date)
    }

    /// The date of trace time `time`.
    func date(atTraceTime time: Double) -> Date { dateOfTraceZero.addingTimeInterval(time) }

    /// Moves to trace time `time`; returns the new state when the objects changed (an incident
    /// started or ended, the feed expired), `nil` when they are the same.
    func advance(to time: Double) -> State? {
        let date = date(atTraceTime: time)
        let now = Self.state(of: layer, at: date)
        guard now != state else { return nil }
        overlay = TrafficObjectOverlay(base: base, layer: layer, at: date)
        state = now
        return now
    }

    /// Route costs at trace time `time`: the flow and the incidents in force then; none once expired.
    func routeTraffic(atTraceTime time: Double, network: any RoadNetwork) -> RouteTraffic {
        let date = date(atTraceTime: time)
        return layer.isValid(at: date) ? layer.routeTraffic(at: date, network: network) : RouteTraffic()
    }

    private static func state(of layer: TrafficLayer, at date: Date) -> State {
        State(incidents: Set(layer.incidents(at: date).map(\.record.id)), valid: layer.isValid(at: date))
    }

    func link(_ id: LinkID) throws -> RoadLink { try overlay.link(id) }

    func links(near point: GeoPoint, radius: Double) throws -> [RoadLink] {
        try overlay.links(near: point, radius: radius)
    }

    func linksWithSafetyLocations(near point: GeoPoint, radius: Double, of types: Set<RoadObjectType>) throws
        -> [RoadLink]
    {
        try overlay.linksWithSafetyLocations(near: point, radius: radius, of: types)
    }

    func successors(of directedLink: DirectedLink) throws -> [DirectedLink] {
        try base.successors(of: directedLink)
    }

    func outgoing(from node: NodeID) throws -> [DirectedLink] { try base.outgoing(from: node) }

    func incoming(to node: NodeID) throws -> [DirectedLink] { try base.incoming(to: node) }

    func longestWayOn(_ directedLink: DirectedLink) throws -> Double? {
        try base.longestWayOn(directedLink)
    }
}

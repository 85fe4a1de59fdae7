import ADASISProvider
import Foundation
import Horizon
import RoadMap
import Routing
import Traffic

/// The traffic feed the daemon runs with: the feed last taken, placed on the map, and what became
/// of the feeds it was offered.
struct DaemonTraffic {
    /// The feed in use.
    var feed: TrafficFeed?
    /// It, placed on the map.
    var layer: TrafficLayer?
    /// The horizon's network: the map with the layer's incidents and congestion laid over it.
    var overlay: TrafficObjectOverlay?
    /// The layer's link speeds when the overlay was made, for the traffic-speed profile.
    var speeds: TrafficSpeedTable?
    /// The identifiers of the incidents in force when the overlay was made.
    var incidentsInForce: Set<String> = []
    /// What the pipeline reads: ``overlay`` or the map, switched in place (set by the core's init).
    var network: DaemonTrafficNetwork?
    /// Traffic changes the running horizon took in place (only the changed objects sent).
    var updatedInPlace = 0
    /// Feeds taken.
    var applied = 0
    /// Feeds refused whole, by reason.
    var refused: [String: Int] = [:]
    /// Records of taken feeds left out, by reason.
    var recordsSkipped: [String: Int] = [:]
}

extension DaemonCore {
    /// Whether a feed was handled (taken or refused) or must be offered again later.
    public enum TrafficFeedOutcome: Hashable, Sendable {
        /// The feed is in use now.
        case applied
        /// The same traffic model as the running one: nothing changed.
        case unchanged
        /// The feed was refused; the previous traffic stays.
        case refused
        /// No fix yet: the receiver's time, which the feed is checked against, is not known.
        case waitingForTime
    }

    /// Takes the bytes of the traffic feed `source` (a file the run loop read because it changed)
    /// at monotonic time `now`: checked against the receiver's time (never the wall clock), placed
    /// on the map, given to route planning (delays, closures; the next fix on the route looks for
    /// a better one) and to the horizon (incidents and congestion as road objects, in a new
    /// pipeline that continues the stream). A feed that cannot be used (not JSON, a missing field,
    /// a clock that lies, expired, no record on the map) is refused and counted, and the previous
    /// traffic stays; single records that cannot be used are left out and counted.
    public mutating func takeTrafficFeed(_ data: Data, source: String, at now: Double) -> (
        outcome: TrafficFeedOutcome, effects: [DaemonEffect]
    ) {
        guard lastFix != nil else { return (.waitingForTime, []) }
        let date = Date(timeIntervalSince1970: timeline.time(atMonotonic: now))
        let feed: TrafficFeed
        do {
            feed = try TrafficFeedParser.parse(data, now: date)
        } catch {
            return refuseTrafficFeed(source: source, reason: Self.refusalName(error), problem: "\(error)")
        }
        if let running = traffic.feed, running.trafficModelID == feed.trafficModelID, running == feed {
            return (.unchanged, [])
        }
        let layer = TrafficLayer(feed: feed, network: map)
        let records = feed.flow.count + feed.incidents.count + feed.skipped.count
        if layer.matched.isEmpty && records > 0 {
            let reasons = layer.skipped.prefix(3).map(\.description).joined(separator: "; ")
            return refuseTrafficFeed(
                source: source, reason: "nothing_on_map",
                problem: "none of its \(records) records could be used (\(reasons))")
        }
        for record in layer.skipped { traffic.recordsSkipped[record.reason.name, default: 0] += 1 }
        traffic.feed = feed
        traffic.layer = layer
        traffic.applied += 1
        var effects: [DaemonEffect] = [
            .log(
                .notice,
                "traffic feed \(source) (model \(feed.trafficModelID)) applied: \(layer.flow.count) links with flow, \(layer.incidents(at: date).count) incidents, \(layer.congestion.count) congested stretches, \(layer.skipped.count) records left out"
            )
        ]
        effects += refreshTraffic(at: date, reason: "traffic model \(feed.trafficModelID)", inPlace: true)
        return (.applied, effects)
    }

    /// A feed the run loop could not read (gone, unreadable): counted and logged; the previous
    /// traffic stays.
    public mutating func trafficFeedUnreadable(source: String, problem: String) -> [DaemonEffect] {
        refuseTrafficFeed(source: source, reason: "unreadable", problem: problem).effects
    }

    /// At each wake-up: when the feed has expired, traffic is dropped; when incidents started or
    /// ended, the horizon's objects and the route costs follow.
    mutating func followTrafficClock(at now: Double) -> [DaemonEffect] {
        guard let layer = traffic.layer, lastFix != nil else { return [] }
        let date = Date(timeIntervalSince1970: timeline.time(atMonotonic: now))
        guard layer.isValid(at: date) else {
            traffic.feed = nil
            traffic.layer = nil
            return [
                .log(
                    .warning,
                    "traffic feed (model \(layer.trafficModelID)) expired at \(ISO8601DateFormatter().string(from: layer.validUntil)): routing and the horizon go on without traffic"
                )
            ] + refreshTraffic(at: date, reason: "traffic expired", inPlace: true)
        }
        guard Set(layer.incidents(at: date).map(\.record.id)) != traffic.incidentsInForce else { return [] }
        return refreshTraffic(at: date, reason: "incidents changed", inPlace: true)
    }

    /// After a reload onto a new map: the running feed placed again on it.
    mutating func placeTrafficOnNewMap() -> [DaemonEffect] {
        guard let feed = traffic.feed, let lastFix else { return [] }
        traffic.layer = TrafficLayer(feed: feed, network: map)
        return refreshTraffic(
            at: Date(timeIntervalSince1970: lastFix.time), reason: "traffic on the new map", inPlace: false)
    }

    /// Stops using the running feed (a reload without `[traffic] feed`); nothing when there is none.
    mutating func dropTraffic(reason: String) -> [DaemonEffect] {
        guard traffic.layer != nil, let lastFix else { return [] }
        traffic.feed = nil
        traffic.layer = nil
        return [.log(.notice, "traffic dropped (\(reason))")]
            + refreshTraffic(at: Date(timeIntervalSince1970: lastFix.time), reason: reason, inPlace: false)
    }

    /// The horizon's network: the map, with the traffic's objects laid over it when there is
    /// traffic, read through ``DaemonTraffic/network`` (pointed at them here) so that a traffic
    /// change can be taken in place.
    var horizonNetwork: any RoadNetwork {
        let network: any RoadNetwork = traffic.overlay ?? map
        // Custom objects without traffic are read directly: the engine names them by their ids
        // only on a CustomObjectOverlay (the first feed then replaces the pipeline).
        guard let switched = traffic.network, !(network is CustomObjectOverlay) else { return network }
        switched.current = network
        return switched
    }

    /// Gives the running traffic (or none) at `date` to route planning and the horizon. With
    /// `inPlace` (the map is the same) the running pipeline reads the new objects and sends only
    /// what changed (``takeTrafficInPlace(reason:)``); otherwise, or when that fails, a new
    /// pipeline continues the stream.
    private mutating func refreshTraffic(at date: Date, reason: String, inPlace: Bool) -> [DaemonEffect] {
        if let layer = traffic.layer {
            routes.setTraffic(layer.routeTraffic(at: date, network: map))
            traffic.overlay = TrafficObjectOverlay(base: map, layer: layer, at: date)
            traffic.speeds = TrafficSpeedTable(layer.linkSpeeds(at: date))
            traffic.incidentsInForce = Set(layer.incidents(at: date).map(\.record.id))
        } else {
            routes.setTraffic(RouteTraffic())
            traffic.overlay = nil
            traffic.speeds = nil
            traffic.incidentsInForce = []
        }
        if inPlace, let effects = takeTrafficInPlace(reason: reason) { return effects }
        var effects = replacePipeline(reason: reason, continuingMatching: true)
        if let match = processLastFixAgain() { effects += followRoute(match) }
        return effects
    }

    /// Points the running pipeline's network at the new objects and has the engine read them again
    /// on the tree it holds; the provider then sends the new, changed and withdrawn road objects
    /// only (same paths, same indices). `nil` when the pipeline does not read the switched network
    /// (it was built on another map) or a link cannot be read: the caller replaces the pipeline.
    private mutating func takeTrafficInPlace(reason: String) -> [DaemonEffect]? {
        guard let switched = traffic.network, pipeline.engine.network === switched else { return nil }
        let previous = switched.current
        switched.current = traffic.overlay ?? map
        do {
            if try pipeline.engine.refreshFeatures() { pipeline.provider.contentChanged(tree: pipeline.engine.tree) }
            // The traffic-speed profile follows (an empty table, "no data", once traffic is gone).
            if let speeds = traffic.speeds ?? pipeline.provider.trafficSpeeds.map({ _ in TrafficSpeedTable() }) {
                pipeline.provider.setTrafficSpeeds(speeds)
            }
        } catch {
            switched.current = previous
            return nil
        }
        traffic.updatedInPlace += 1
        return [.log(.info, "horizon objects updated in place (\(reason))")]
    }

    private mutating func refuseTrafficFeed(source: String, reason: String, problem: String) -> (
        outcome: TrafficFeedOutcome, effects: [DaemonEffect]
    ) {
        traffic.refused[reason, default: 0] += 1
        let keeping = traffic.layer.map { "keeping traffic model \($0.trafficModelID)" } ?? "no traffic meanwhile"
        return (.refused, [.log(.warning, "traffic feed \(source) refused (\(keeping)): \(problem)")])
    }

    /// The metric label of a refused feed.
    static func refusalName(_ error: TrafficFeedError) -> String {
        switch error {
        case .malformedJSON: return "malformed_json"
        case .malformedXML: return "malformed_xml"
        case .invalidField: return "invalid_field"
        case .generatedInTheFuture: return "clock"
        case .validUntilBeforeGeneratedAt: return "invalid_validity"
        case .expired: return "expired"
        }
    }
}

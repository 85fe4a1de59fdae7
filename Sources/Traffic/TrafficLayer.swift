import Foundation
import OpenLR
import RoadMap
import Routing

/// Traffic on one directed link.
public struct LinkFlow: Hashable, Sendable {
    /// The speed now, km/h.
    public var currentSpeed: Double
    /// The speed with no traffic, km/h.
    public var freeFlowSpeed: Double
    /// The provider's confidence, 0 ... 1.
    public var confidence: Double
    /// Metres of the link the record covers.
    public var coveredLength: Double
    /// Seconds lost on the covered part against free flow.
    public var delay: Double
    /// No traffic may enter the link.
    public var closed: Bool

    /// Creates a link's flow.
    public init(
        currentSpeed: Double, freeFlowSpeed: Double, confidence: Double, coveredLength: Double, delay: Double,
        closed: Bool
    ) {
        self.currentSpeed = currentSpeed
        self.freeFlowSpeed = freeFlowSpeed
        self.confidence = confidence
        self.coveredLength = coveredLength
        self.delay = delay
        self.closed = closed
    }
}

/// An incident placed on the map.
public struct LocatedIncident: Hashable, Sendable {
    /// The record.
    public var record: IncidentRecord
    /// Where it is.
    public var line: DecodedLine

    /// Creates a located incident.
    public init(record: IncidentRecord, line: DecodedLine) {
        self.record = record
        self.line = line
    }
}

/// A feed record placed on the map.
public struct MatchedRecord: Hashable, Sendable {
    /// Where the record was in the feed.
    public var position: String
    /// Where it is on the map.
    public var line: DecodedLine

    /// Creates a matched record.
    public init(position: String, line: DecodedLine) {
        self.position = position
        self.line = line
    }
}

/// A stretch of a flow record that is congested (below ``TrafficLayer/congestionThreshold`` of its
/// free-flow speed) or closed.
public struct CongestedStretch: Hashable, Sendable {
    /// Where the record was in the feed.
    public var position: String
    /// Where it is on the map.
    public var line: DecodedLine
    /// The speed now, km/h.
    public var currentSpeed: Double
    /// The speed with no traffic, km/h.
    public var freeFlowSpeed: Double
    /// No traffic may enter the stretch.
    public var closed: Bool

    /// Creates a congested stretch.
    public init(position: String, line: DecodedLine, currentSpeed: Double, freeFlowSpeed: Double, closed: Bool) {
        self.position = position
        self.line = line
        self.currentSpeed = currentSpeed
        self.freeFlowSpeed = freeFlowSpeed
        self.closed = closed
    }
}

/// The traffic over the static map: flow per directed link, incidents, closures, all valid until
/// the feed's validity ends (evaluated at a time the caller passes in).
public struct TrafficLayer: Sendable {
    /// The traffic model the data comes from.
    public let trafficModelID: String
    /// Until when the data holds.
    public let validUntil: Date
    /// Flow per directed link (the lowest current speed where records overlap).
    public let flow: [DirectedLink: LinkFlow]
    /// Incidents placed on the map.
    public let incidents: [LocatedIncident]
    /// Records placed on the map, in feed order.
    public let matched: [MatchedRecord]
    /// Records left out, while reading or placing them, in feed order.
    public let skipped: [SkippedRecord]
    /// The flow records whose speed is below ``congestionThreshold`` of free flow, or that close
    /// the road, in feed order: the horizon's `congestion` objects.
    public let congestion: [CongestedStretch]

    /// A flow record is congestion when its current speed is below this share of its free-flow
    /// speed: 0.5, the boundary between Mapbox's `moderate` and `heavy` congestion levels and
    /// TomTom's "relative speed" colouring of slow traffic (`Docs/traffic-feed.md`).
    public static let congestionThreshold = 0.5

    /// Places `feed` on `network`.
    public init(feed: TrafficFeed, network: any RoadNetwork, parameters: DecoderParameters = DecoderParameters()) {
        let placement = RecordPlacement(network: network, parameters: parameters)
        var flow: [DirectedLink: LinkFlow] = [:]
        var incidents: [LocatedIncident] = []
        var matched: [MatchedRecord] = []
        var skipped = feed.skipped
        var congestion: [CongestedStretch] = []
        for record in feed.flow {
            switch placement.place(record.location) {
            case .failure(let reason): skipped.append(SkippedRecord(position: record.position, reason: reason))
            case .success(let line):
                matched.append(MatchedRecord(position: record.position, line: line))
                if record.roadClosure || record.currentSpeed < Self.congestionThreshold * record.freeFlowSpeed {
                    congestion.append(
                        CongestedStretch(
                            position: record.position, line: line, currentSpeed: record.currentSpeed,
                            freeFlowSpeed: record.freeFlowSpeed, closed: record.roadClosure))
                }
                for (link, covered) in placement.coveredLengths(line) {
                    let delay = covered / (max(record.currentSpeed, 1) / 3.6) - covered / (record.freeFlowSpeed / 3.6)
                    let entry = LinkFlow(
                        currentSpeed: record.currentSpeed, freeFlowSpeed: record.freeFlowSpeed,
                        confidence: record.confidence, coveredLength: covered, delay: max(0, delay),
                        closed: record.roadClosure)
                    // Where records overlap, a closure holds, then the slower record.
                    if let known = flow[link],
                        known.closed || (!entry.closed && known.currentSpeed <= entry.currentSpeed)
                    {
                        continue
                    }
                    flow[link] = entry
                }
            }
        }
        for record in feed.incidents {
            switch placement.place(record.location) {
            case .failure(let reason): skipped.append(SkippedRecord(position: record.position, reason: reason))
            case .success(let line):
                matched.append(MatchedRecord(position: record.position, line: line))
                incidents.append(LocatedIncident(record: record, line: line))
            }
        }
        skipped.sort { Self.order($0.position) < Self.order($1.position) }
        trafficModelID = feed.trafficModelID
        validUntil = feed.validUntil
        self.flow = flow
        self.incidents = incidents
        self.matched = matched
        self.skipped = skipped
        self.congestion = congestion
    }

    /// Feed order: flow records first, then incidents, each by index.
    private static func order(_ position: String) -> Int {
        let index = Int(position.split(separator: "[").last?.dropLast() ?? "") ?? 0
        return (position.hasPrefix("incidents") ? 1 << 40 : 0) + index
    }

    /// Whether the data still holds at `time`.
    public func isValid(at time: Date) -> Bool { time < validUntil }

    /// The flow on `link` at `time`, nil where none is known or the data has expired.
    public func flow(on link: DirectedLink, at time: Date) -> LinkFlow? { isValid(at: time) ? flow[link] : nil }

    /// Incidents in force at `time`: started (or with no start) and not ended, while the data holds.
    public func incidents(at time: Date) -> [LocatedIncident] {
        guard isValid(at: time) else { return [] }
        return incidents.filter { incident in
            (incident.record.startTime.map { $0 <= time } ?? true)
                && (incident.record.endTime.map { time < $0 } ?? true)
        }
    }

    /// What the route planner needs at `time`: each directed link's delay (flow, plus incident
    /// delays spread over their links by length) and the closed links; nothing once expired.
    public func routeTraffic(at time: Date, network: any RoadNetwork) -> RouteTraffic {
        guard isValid(at: time) else { return RouteTraffic() }
        var traffic = RouteTraffic()
        for (link, entry) in flow {
            if entry.closed {
                traffic.closed.insert(link)
            } else if entry.delay > 0 {
                traffic.delays[link] = entry.delay
            }
        }
        let placement = RecordPlacement(network: network, parameters: DecoderParameters())
        for incident in incidents(at: time) {
            let covered = placement.coveredLengths(incident.line)
            if incident.record.roadClosed {
                for (link, _) in covered { traffic.closed.insert(link) }
                continue
            }
            guard let delay = incident.record.delay, incident.line.length > 0 else { continue }
            for (link, length) in covered {
                traffic.delays[link, default: 0] += delay * length / incident.line.length
            }
        }
        return traffic
    }
}

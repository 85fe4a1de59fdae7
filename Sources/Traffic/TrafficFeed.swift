import Foundation
import RoadMap

/// Where a feed record lies on the road.
public enum TrafficLocation: Hashable, Sendable {
    /// An OpenLR line location reference, base64 (binary format version 3).
    case openLR(String)
    /// Directed links of the map the feed was made for, in driving order.
    case links([DirectedLink])
    /// A polyline of WGS-84 points in driving order (decoded as a line between its ends).
    case coordinates([GeoPoint])
}

/// A flow record: speeds on a stretch of road (TomTom Traffic API `flowSegmentData` names).
public struct FlowRecord: Hashable, Sendable {
    /// Where the record was in the feed (`flowSegments[3]`).
    public var position: String
    /// The stretch of road.
    public var location: TrafficLocation
    /// The speed now, km/h.
    public var currentSpeed: Double
    /// The speed with no traffic, km/h.
    public var freeFlowSpeed: Double
    /// How sure the provider is, 0 ... 1.
    public var confidence: Double
    /// The road is closed.
    public var roadClosure: Bool

    /// Creates a flow record.
    public init(
        position: String, location: TrafficLocation, currentSpeed: Double, freeFlowSpeed: Double,
        confidence: Double = 1, roadClosure: Bool = false
    ) {
        self.position = position
        self.location = location
        self.currentSpeed = currentSpeed
        self.freeFlowSpeed = freeFlowSpeed
        self.confidence = confidence
        self.roadClosure = roadClosure
    }
}

/// The kind of an incident: TomTom's `iconCategory` codes.
public enum IncidentCategory: Int, Hashable, Sendable, CaseIterable {
    case unknown = 0, accident, fog, dangerousConditions, rain, ice, jam, laneClosed, roadClosed, roadWorks, wind,
        flooding
    case brokenDownVehicle = 14
}

/// An incident record (TomTom Traffic API incident details names).
public struct IncidentRecord: Hashable, Sendable {
    /// Where the record was in the feed (`incidents[0]`).
    public var position: String
    /// The provider's identifier.
    public var id: String
    /// The stretch of road.
    public var location: TrafficLocation
    /// What happened.
    public var iconCategory: IncidentCategory
    /// Seconds of delay it causes along its stretch, when known.
    public var delay: Double?
    /// When it started, when known.
    public var startTime: Date?
    /// When it is expected to end, when known.
    public var endTime: Date?
    /// The road is closed along the stretch.
    public var roadClosed: Bool

    /// Creates an incident record.
    public init(
        position: String, id: String, location: TrafficLocation, iconCategory: IncidentCategory, delay: Double? = nil,
        startTime: Date? = nil, endTime: Date? = nil, roadClosed: Bool = false
    ) {
        self.position = position
        self.id = id
        self.location = location
        self.iconCategory = iconCategory
        self.delay = delay
        self.startTime = startTime
        self.endTime = endTime
        self.roadClosed = roadClosed
    }
}

/// Why a record of a feed was left out.
public enum SkipReason: Error, Hashable, Sendable, CustomStringConvertible {
    /// A required field is missing.
    case missingField(String)
    /// A field has a value of the wrong type or out of range.
    case invalidValue(field: String)
    /// The OpenLR reference cannot be read.
    case invalidOpenLR(String)
    /// The location could not be placed on the map (off the map, no matching road or path).
    case notOnMap(String)
    /// The incident ends before it starts.
    case endsBeforeStart
    /// The incident ended before the time the feed is applied at.
    case ended
    /// The record is suspended (DATEX II `validityStatus` `suspended`): not in force.
    case suspended
    /// The record uses something this reader does not place (a point location, a location table).
    case unsupported(String)

    /// A short name for counting by reason.
    public var name: String {
        switch self {
        case .missingField: return "missing field"
        case .invalidValue: return "invalid value"
        case .invalidOpenLR: return "invalid OpenLR"
        case .notOnMap: return "not on the map"
        case .endsBeforeStart: return "ends before it starts"
        case .ended: return "ended"
        case .suspended: return "suspended"
        case .unsupported: return "unsupported"
        }
    }

    public var description: String {
        switch self {
        case .missingField(let f): return "missing field \"\(f)\""
        case .invalidValue(let f): return "invalid value of \"\(f)\""
        case .invalidOpenLR(let why): return "invalid OpenLR: \(why)"
        case .notOnMap(let why): return "not on the map: \(why)"
        case .endsBeforeStart: return "endTime is before startTime"
        case .ended: return "the incident has ended"
        case .suspended: return "the record is suspended (validityStatus)"
        case .unsupported(let what): return "not supported: \(what)"
        }
    }
}

/// A record left out, where it was and why.
public struct SkippedRecord: Hashable, Sendable, CustomStringConvertible {
    /// Where the record was in the feed.
    public var position: String
    /// Why it was left out.
    public var reason: SkipReason

    /// Creates a skipped record.
    public init(position: String, reason: SkipReason) {
        self.position = position
        self.reason = reason
    }

    public var description: String { "\(position): \(reason)" }
}

/// One traffic feed: a traffic model's flow and incidents, valid for a time.
public struct TrafficFeed: Hashable, Sendable {
    /// The provider's traffic model id (a new id = new data).
    public var trafficModelID: String
    /// When the provider made the feed.
    public var generatedAt: Date
    /// Until when its data holds.
    public var validUntil: Date
    /// The flow records that were read.
    public var flow: [FlowRecord]
    /// The incident records that were read.
    public var incidents: [IncidentRecord]
    /// Records that were left out while reading.
    public var skipped: [SkippedRecord]

    /// Creates a feed.
    public init(
        trafficModelID: String, generatedAt: Date, validUntil: Date, flow: [FlowRecord] = [],
        incidents: [IncidentRecord] = [], skipped: [SkippedRecord] = []
    ) {
        self.trafficModelID = trafficModelID
        self.generatedAt = generatedAt
        self.validUntil = validUntil
        self.flow = flow
        self.incidents = incidents
        self.skipped = skipped
    }
}

import Foundation
import RoadMap

/// Why a whole feed was refused (nothing of it is used).
public enum TrafficFeedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not JSON (truncated, a syntax error); the parser's words.
    case malformedJSON(String)
    /// An XML feed (DATEX II) that is not well-formed XML; where and the parser's words.
    case malformedXML(String)
    /// A required top-level field is missing or has the wrong type.
    case invalidField(String)
    /// The feed says it was made after the time it is applied at, beyond the allowed clock skew:
    /// the provider's or our clock is wrong.
    case generatedInTheFuture(generatedAt: Date, now: Date)
    /// The feed's validity ends before it was made.
    case validUntilBeforeGeneratedAt
    /// The feed's validity ended before the time it is applied at.
    case expired(validUntil: Date, now: Date)

    public var description: String {
        switch self {
        case .malformedJSON(let why): return "not a JSON traffic feed (truncated or malformed): \(why)"
        case .malformedXML(let why): return "not a DATEX II XML feed (truncated or malformed): \(why)"
        case .invalidField(let field): return "field \"\(field)\" is missing or invalid; see Docs/traffic-feed.md"
        case .generatedInTheFuture(let at, let now):
            return "generatedAt \(TrafficTime.format(at)) is after now (\(TrafficTime.format(now))): a clock is wrong"
        case .validUntilBeforeGeneratedAt: return "validUntil is before generatedAt"
        case .expired(let until, let now):
            return "the feed expired at \(TrafficTime.format(until)) (now \(TrafficTime.format(now)))"
        }
    }
}

/// ISO 8601 times as the feed writes them.
enum TrafficTime {
    static func parse(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    static func format(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}

/// Reads the JSON traffic feed of Docs/traffic-feed.md.
public enum TrafficFeedParser {
    /// How far the feed's `generatedAt` may be ahead of the time it is applied at.
    public static let allowedClockSkew: TimeInterval = 300

    /// Parses `data`, checked against `now` (the time the feed is applied at; never read from a clock
    /// here). Bad records are skipped and listed; a bad feed throws and yields nothing. XML (DATEX II
    /// situation records) is recognised by its content and read by ``DatexFeedParser``.
    public static func parse(_ data: Data, now: Date) throws(TrafficFeedError) -> TrafficFeed {
        if DatexFeedParser.looksLikeXML(data) { return try DatexFeedParser.parse(data, now: now) }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .malformedJSON((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)")
        }
        guard let root = object as? [String: Any] else { throw .invalidField("(top level object)") }
        guard let modelID = root["trafficModelId"].flatMap(text) else { throw .invalidField("trafficModelId") }
        guard let generatedAt = (root["generatedAt"] as? String).flatMap(TrafficTime.parse) else {
            throw .invalidField("generatedAt")
        }
        guard let validUntil = (root["validUntil"] as? String).flatMap(TrafficTime.parse) else {
            throw .invalidField("validUntil")
        }
        if generatedAt > now.addingTimeInterval(allowedClockSkew) {
            throw .generatedInTheFuture(generatedAt: generatedAt, now: now)
        }
        if validUntil < generatedAt { throw .validUntilBeforeGeneratedAt }
        if validUntil <= now { throw .expired(validUntil: validUntil, now: now) }
        var feed = TrafficFeed(trafficModelID: modelID, generatedAt: generatedAt, validUntil: validUntil)
        for (name, value) in [("flowSegments", root["flowSegments"]), ("incidents", root["incidents"])] {
            guard let value else { continue }
            guard let records = value as? [Any] else { throw .invalidField(name) }
            for (index, element) in records.enumerated() {
                let position = "\(name)[\(index)]"
                do {
                    guard let record = element as? [String: Any] else { throw SkipReason.invalidValue(field: position) }
                    if name == "flowSegments" {
                        feed.flow.append(try flowRecord(record, position: position))
                    } else {
                        let incident = try incidentRecord(record, position: position)
                        if let end = incident.endTime, end <= now { throw SkipReason.ended }
                        feed.incidents.append(incident)
                    }
                } catch let reason as SkipReason {
                    feed.skipped.append(SkippedRecord(position: position, reason: reason))
                } catch {
                    feed.skipped.append(SkippedRecord(position: position, reason: .invalidValue(field: position)))
                }
            }
        }
        return feed
    }

    private static func text(_ value: Any) -> String? {
        if let string = value as? String, !string.isEmpty { return string }
        if let number = value as? NSNumber { return number.stringValue }
        return nil
    }

    private static func flowRecord(_ record: [String: Any], position: String) throws -> FlowRecord {
        let current = try number(record, "currentSpeed", in: 0...400)
        let free = try number(record, "freeFlowSpeed", in: 0.1...400)
        let confidence = try record["confidence"] == nil ? 1 : number(record, "confidence", in: 0...1)
        let closed = try flag(record, "roadClosure")
        return FlowRecord(
            position: position, location: try location(record), currentSpeed: current, freeFlowSpeed: free,
            confidence: confidence, roadClosure: closed)
    }

    private static func incidentRecord(_ record: [String: Any], position: String) throws -> IncidentRecord {
        guard let id = record["id"].flatMap(text) else { throw SkipReason.missingField("id") }
        var category = IncidentCategory.unknown
        if record["iconCategory"] != nil {
            let code = try number(record, "iconCategory", in: 0...99)
            guard let known = IncidentCategory(rawValue: Int(code)) else {
                throw SkipReason.invalidValue(field: "iconCategory")
            }
            category = known
        }
        let delay = try record["delay"] == nil ? nil : number(record, "delay", in: 0...86_400)
        let start = try time(record, "startTime"), end = try time(record, "endTime")
        if let start, let end, end < start { throw SkipReason.endsBeforeStart }
        return IncidentRecord(
            position: position, id: id, location: try location(record), iconCategory: category, delay: delay,
            startTime: start, endTime: end, roadClosed: try flag(record, "roadClosed") || category == .roadClosed)
    }

    private static func location(_ record: [String: Any]) throws -> TrafficLocation {
        if let value = record["openlr"] {
            guard let string = value as? String else { throw SkipReason.invalidValue(field: "openlr") }
            return .openLR(string)
        }
        if let value = record["links"] {
            guard let items = value as? [String], !items.isEmpty else { throw SkipReason.invalidValue(field: "links") }
            return .links(
                try items.map { item in
                    guard let link = directedLink(item) else { throw SkipReason.invalidValue(field: "links") }
                    return link
                })
        }
        if let value = record["coordinates"] {
            guard let pairs = value as? [[Double]], pairs.count >= 2, pairs.allSatisfy({ $0.count == 2 }),
                pairs.allSatisfy({ abs($0[0]) <= 180 && abs($0[1]) <= 90 })
            else { throw SkipReason.invalidValue(field: "coordinates") }
            return .coordinates(pairs.map { GeoPoint(latitude: $0[1], longitude: $0[0]) })
        }
        throw SkipReason.missingField("openlr, links or coordinates")
    }

    /// `L12+` / `12-`: link 12 driven forward / backward.
    public static func directedLink(_ text: String) -> DirectedLink? {
        var body = Substring(text)
        if body.first == "L" { body = body.dropFirst() }
        guard let sign = body.last, sign == "+" || sign == "-", let raw = UInt64(body.dropLast()) else { return nil }
        return DirectedLink(LinkID(raw), sign == "+" ? .forward : .backward)
    }

    private static func number(_ record: [String: Any], _ field: String, in range: ClosedRange<Double>) throws
        -> Double
    {
        guard let value = record[field] else { throw SkipReason.missingField(field) }
        guard let number = value as? NSNumber, range.contains(number.doubleValue) else {
            throw SkipReason.invalidValue(field: field)
        }
        return number.doubleValue
    }

    private static func flag(_ record: [String: Any], _ field: String) throws -> Bool {
        guard let value = record[field] else { return false }
        guard let flag = value as? Bool else { throw SkipReason.invalidValue(field: field) }
        return flag
    }

    private static func time(_ record: [String: Any], _ field: String) throws -> Date? {
        guard let value = record[field] else { return nil }
        guard let string = value as? String, let date = TrafficTime.parse(string) else {
            throw SkipReason.invalidValue(field: field)
        }
        return date
    }
}

import Foundation
import OpenLR
import RoadMap

/// Reads a DATEX II `SituationPublication` (XML, version 2.3 `d2LogicalModel` or version 3
/// `messageContainer`) into the same feed as the JSON format: each `situationRecord` becomes an
/// incident record (`Docs/traffic-feed.md`, "DATEX II").
public enum DatexFeedParser {
    /// How long a publication holds when the caller gives no lifetime: DATEX II situation
    /// publications carry no expiry of their own, and a supplier publishes a new one on change.
    public static let defaultLifetime: TimeInterval = 900

    /// Whether `data` looks like XML (its first non-blank character is `<`, after a byte-order mark).
    public static func looksLikeXML(_ data: Data) -> Bool {
        var bytes = data.prefix(4096)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }

    /// Parses `data`, checked against `now` (the time the feed is applied at). The feed holds for
    /// `lifetime` seconds after its `publicationTime`. Bad records are skipped and listed; a bad
    /// document throws and yields nothing.
    public static func parse(
        _ data: Data, now: Date, lifetime: TimeInterval = defaultLifetime
    ) throws(TrafficFeedError) -> TrafficFeed {
        let root: XMLTree
        do {
            root = try XMLReader.read(data)
        } catch {
            throw .malformedXML("line \(error.line), column \(error.column): \(error.reason)")
        }
        let publication =
            [root] + [root.descendant("payloadPublication"), root.descendant("payload")].compactMap { $0 }
        guard let situations = publication.first(where: { $0.type == "SituationPublication" }) else {
            throw .invalidField("payloadPublication (a DATEX II SituationPublication)")
        }
        guard let published = situations.text("publicationTime"), let generatedAt = TrafficTime.parse(published)
        else { throw .invalidField("publicationTime") }
        let validUntil = generatedAt.addingTimeInterval(lifetime)
        if generatedAt > now.addingTimeInterval(TrafficFeedParser.allowedClockSkew) {
            throw .generatedInTheFuture(generatedAt: generatedAt, now: now)
        }
        if validUntil <= now { throw .expired(validUntil: validUntil, now: now) }
        var feed = TrafficFeed(trafficModelID: "datex2:\(published)", generatedAt: generatedAt, validUntil: validUntil)
        let records = situations.children("situation").flatMap { $0.children("situationRecord") }
        for (index, record) in records.enumerated() {
            let position = "situationRecord[\(index)]"
            do {
                let incident = try incidentRecord(record, position: position)
                if let end = incident.endTime, end <= now { throw SkipReason.ended }
                feed.incidents.append(incident)
            } catch let reason as SkipReason {
                feed.skipped.append(SkippedRecord(position: position, reason: reason))
            } catch {
                feed.skipped.append(SkippedRecord(position: position, reason: .invalidValue(field: position)))
            }
        }
        return feed
    }

    private static func incidentRecord(_ record: XMLTree, position: String) throws -> IncidentRecord {
        guard let id = record.attributes["id"], !id.isEmpty else { throw SkipReason.missingField("situationRecord id") }
        guard let type = record.type else { throw SkipReason.missingField("situationRecord xsi:type") }
        let validity = record.child("validity")
        if validity?.text("validityStatus") == "suspended" { throw SkipReason.suspended }
        let times = validity?.child("validityTimeSpecification")
        let start = try time(times, "overallStartTime"), end = try time(times, "overallEndTime")
        if let start, let end, end < start { throw SkipReason.endsBeforeStart }
        var delay: Double?
        if let text = record.descendant("delays")?.text("delayTimeValue") {
            guard let seconds = Double(text), (0...86_400).contains(seconds) else {
                throw SkipReason.invalidValue(field: "delayTimeValue")
            }
            delay = seconds
        }
        let category = try DatexCategory.category(of: record, type: type)
        let constriction = record.descendant("trafficConstrictionType")?.text
        let closed = category == .roadClosed || constriction == "roadBlocked" || constriction == "carriagewayBlocked"
        return IncidentRecord(
            position: position, id: id, location: try location(record), iconCategory: category, delay: delay,
            startTime: start, endTime: end, roadClosed: closed)
    }

    private static func time(_ node: XMLTree?, _ field: String) throws -> Date? {
        guard let text = node?.text(field) else { return nil }
        guard let date = TrafficTime.parse(text) else { throw SkipReason.invalidValue(field: field) }
        return date
    }

    /// The record's place: an OpenLR line location (as XML), else a linear location's end points
    /// (TPEG `from`/`to`, or `linearCoordinatesStartPoint`/`EndPoint`).
    private static func location(_ record: XMLTree) throws -> TrafficLocation {
        guard let place = record.child("groupOfLocations") ?? record.child("locationReference") else {
            throw SkipReason.missingField("groupOfLocations")
        }
        if place.descendant("openlrLocationReferencePoint") != nil { return .openLR(try openLR(place)) }
        let ends: [(String, String)] = [("from", "to"), ("linearCoordinatesStartPoint", "linearCoordinatesEndPoint")]
        for (first, last) in ends {
            if let from = place.descendant(first).flatMap(coordinate),
                let to = place.descendant(last).flatMap(coordinate)
            {
                return .coordinates([from, to])
            }
        }
        if place.descendant("latitude") != nil {
            throw SkipReason.unsupported("a point location (only linear locations are placed on links)")
        }
        throw SkipReason.unsupported("no OpenLR or coordinates (ALERT-C and other table locations need their table)")
    }

    /// The first latitude/longitude pair at or below `node`.
    private static func coordinate(_ node: XMLTree) -> GeoPoint? {
        guard let holder = node.child("latitude") != nil ? node : firstHolder(node),
            let latitude = holder.text("latitude").flatMap(Double.init),
            let longitude = holder.text("longitude").flatMap(Double.init),
            abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    private static func firstHolder(_ node: XMLTree) -> XMLTree? {
        for child in node.children {
            if child.child("latitude") != nil { return child }
            if let found = firstHolder(child) { return found }
        }
        return nil
    }

    /// The OpenLR line location reference below `place` (`openlrLocationReferencePoint`s, an
    /// `openlrLastLocationReferencePoint` and optional `openlrOffsets` in metres), in the binary
    /// format the rest of the feed uses.
    private static func openLR(_ place: XMLTree) throws -> String {
        guard let line = firstParent(of: "openlrLocationReferencePoint", in: place) else {
            throw SkipReason.invalidOpenLR("no openlrLocationReferencePoint")
        }
        guard let last = line.child("openlrLastLocationReferencePoint") else {
            throw SkipReason.invalidOpenLR("no openlrLastLocationReferencePoint")
        }
        var points: [LocationReferencePoint] = []
        for node in line.children("openlrLocationReferencePoint") + [last] {
            let isLast = points.count == line.children("openlrLocationReferencePoint").count
            guard let coordinate = coordinate(node) else {
                throw SkipReason.invalidOpenLR("a point without coordinates")
            }
            guard let attributes = node.child("openlrLineAttributes"),
                let frc = attributes.text("openlrFunctionalRoadClass").flatMap(functionalRoadClass),
                let form = attributes.text("openlrFormOfWay").flatMap(formOfWay),
                let bearing = attributes.text("openlrBearing").flatMap(Double.init), (0..<360).contains(bearing)
            else { throw SkipReason.invalidOpenLR("openlrLineAttributes missing or invalid") }
            var lowest: UInt8?
            var distance = 0.0
            if !isLast {
                guard let path = node.child("openlrPathAttributes"),
                    let lfrc = path.text("openlrLowestFRCToNextLRPoint").flatMap(functionalRoadClass),
                    let metres = path.text("openlrDistanceToNextLRPoint").flatMap(Double.init),
                    (0...15_000).contains(metres)
                else { throw SkipReason.invalidOpenLR("openlrPathAttributes missing or invalid") }
                lowest = lfrc
                distance = metres
            }
            points.append(
                LocationReferencePoint(
                    coordinate: coordinate, bearingSector: OpenLRBinary.bearingSector(bearing),
                    functionalRoadClass: frc, formOfWay: form, lowestFRCToNextPoint: lowest,
                    distanceToNextPoint: distance))
        }
        // Offsets are metres in DATEX II, shares of the first / last LRP distance in the binary format.
        func share(_ field: String, of length: Double) throws -> Double {
            guard let text = line.child("openlrOffsets")?.text(field) else { return 0 }
            guard let metres = Double(text), metres >= 0, length > 0, metres < length else {
                throw SkipReason.invalidOpenLR("\(field) \(text) m is not within the first or last stretch")
            }
            return metres / length
        }
        let reference = LineLocationReference(
            points: points,
            positiveOffset: try share("openlrPositiveOffset", of: points[0].distanceToNextPoint),
            negativeOffset: try share("openlrNegativeOffset", of: points[points.count - 2].distanceToNextPoint))
        do {
            return try OpenLRBinary.encode(reference)
        } catch {
            throw SkipReason.invalidOpenLR("\(error)")
        }
    }

    private static func firstParent(of name: String, in node: XMLTree) -> XMLTree? {
        if node.child(name) != nil { return node }
        for child in node.children {
            if let found = firstParent(of: name, in: child) { return found }
        }
        return nil
    }

    /// `FRC0` … `FRC7`.
    private static func functionalRoadClass(_ text: String) -> UInt8? {
        guard text.hasPrefix("FRC"), let value = UInt8(text.dropFirst(3)), value <= 7 else { return nil }
        return value
    }

    /// The DATEX II OpenLR form-of-way names.
    private static func formOfWay(_ text: String) -> OpenLRFormOfWay? {
        let names: [String: OpenLRFormOfWay] = [
            "undefined": .undefined, "motorway": .motorway, "multipleCarriageway": .multipleCarriageway,
            "singleCarriageway": .singleCarriageway, "roundabout": .roundabout, "trafficSquare": .trafficSquare,
            "slipRoad": .slipRoad, "other": .other,
        ]
        return names[text]
    }
}

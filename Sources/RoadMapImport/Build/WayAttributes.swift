import RoadMap

/// Where a road lies when its tags do not say whether it is inside a built-up area.
public enum AreaAssumption: String, Hashable, Sendable, CaseIterable {
    /// Assume urban (inside a built-up area): the right default for city extracts.
    case urban
    /// Assume rural.
    case rural
}

/// The attributes of one OSM way that do not depend on its neighbours, derived from its tags.
///
/// Pairing of one-ways into dual carriageways and point features are added by the graph
/// builder, which sees the neighbouring ways and nodes.
struct WayAttributes: Hashable, Sendable {
    /// The tag keys the attributes (and the form of way, one-way setting, speed limits, lanes and
    /// dual-carriageway pairing derived with them) read: the graph builder keeps only these of a
    /// road way, so a country's other tags (names in other languages, sources, surfaces, …) never
    /// take memory. A test checks on the sample extract that the kept tags give the same attributes.
    static let tagKeys: Set<String> = [
        "name", "ref", "oneway", "junction", "service", "dual_carriageway", "tunnel", "bridge", "incline",
        "maxspeed", "maxspeed:forward", "maxspeed:backward", "maxspeed:conditional",
        "maxspeed:forward:conditional", "maxspeed:backward:conditional", "maxspeed:type", "source:maxspeed",
        "zone:traffic", "lanes", "lanes:forward", "lanes:backward",
    ]

    /// The tags of `tags` that ``tagKeys`` lists.
    static func keptTags(_ tags: [String: String]) -> [String: String] {
        tags.filter { tagKeys.contains($0.key) }
    }

    var highway: HighwayClass
    var formOfWay: FormOfWay
    var name: String?
    var ref: String?
    var oneway: Oneway
    var forward: DirectionalAttributes
    var backward: DirectionalAttributes
    var tunnel: Bool
    var bridge: Bool
    var builtUpArea: Bool?
    /// Slope in percent in the way's drawing direction, from `incline`.
    var incline: Double?
    /// Tag values that could not be parsed (counted by the importer).
    var malformedValues: Int

    /// Derives the attributes; `country` is the ISO 3166-1 alpha-2 code of the map's country.
    init(
        highway: HighwayClass, tags: [String: String], country: String,
        legalDefaults: LegalDefaultSpeeds, unknownArea: AreaAssumption
    ) {
        self.highway = highway
        formOfWay = FormOfWay(highwayClass: highway, tags: tags)
        name = tags["name"]
        ref = tags["ref"]
        oneway = Oneway(tags: tags, highwayClass: highway)
        tunnel = WayAttributes.flag(tags["tunnel"], yesValues: ["yes", "building_passage", "covered", "culvert"])
        bridge = WayAttributes.flag(
            tags["bridge"], yesValues: ["yes", "viaduct", "cantilever", "movable", "boardwalk"])
        builtUpArea = WayAttributes.builtUpArea(tags)
        var malformed = 0
        if let text = tags["incline"] {
            incline = InclineValue.percent(parsing: text)
            if incline == nil && text != "up" && text != "down" { malformed += 1 }
        }

        let limits = DirectionalSpeedLimits(tags: tags)
        malformed += limits.malformedValueCount
        let lanes = LanesPerDirection(tags: tags, oneway: oneway)
        for key in ["lanes", "lanes:forward", "lanes:backward"] {
            if let text = tags[key], LanesPerDirection.count(text) == nil { malformed += 1 }
        }
        let zone =
            tags["zone:traffic"].flatMap { MaxspeedValue(parsing: $0) }
            ?? tags["maxspeed:type"].flatMap { MaxspeedValue(parsing: $0) }
            ?? tags["source:maxspeed"].flatMap { MaxspeedValue(parsing: $0) }
        let roadTypes = WayAttributes.implicitRoadTypes(
            highway: highway, builtUp: builtUpArea ?? (unknownArea == .urban))
        func resolve(_ limit: SpeedLimit, _ reference: MaxspeedValue?) -> SpeedLimit {
            guard limit.value == .unknown, limit.kind != .timeDependent else { return limit }
            if let reference, let implicit = legalDefaults.implicitLimit(for: reference) { return implicit }
            if let zone, let implicit = legalDefaults.implicitLimit(for: zone) { return implicit }
            return legalDefaults.implicitLimit(country: country, roadTypes: roadTypes) ?? limit
        }
        forward = DirectionalAttributes(
            speedLimit: resolve(limits.forward, limits.forwardReference), lanes: lanes.forward)
        backward = DirectionalAttributes(
            speedLimit: resolve(limits.backward, limits.backwardReference), lanes: lanes.backward)
        malformedValues = malformed
    }

    /// `true` for the listed values, `false` for `no` or an absent tag (OSM's default), else `true`
    /// for any other non-`no` value.
    static func flag(_ value: String?, yesValues: Set<String>) -> Bool {
        guard let value else { return false }
        if value == "no" { return false }
        return yesValues.contains(value) || !value.isEmpty
    }

    /// Built-up area from `zone:traffic`, `maxspeed:type`, `source:maxspeed` (`FI:urban`,
    /// `DE:rural`, …); `nil` when none says.
    static func builtUpArea(_ tags: [String: String]) -> Bool? {
        for key in ["zone:traffic", "maxspeed:type", "source:maxspeed", "maxspeed"] {
            guard let value = tags[key]?.lowercased() else { continue }
            if value.hasSuffix(":urban") || value.hasSuffix(":zone") || value.hasSuffix(":living_street") {
                return true
            }
            if value.hasSuffix(":rural") || value.hasSuffix(":motorway") || value.hasSuffix(":trunk") { return false }
        }
        return nil
    }

    /// The road-type names of the legal default speed table to try, most specific first.
    static func implicitRoadTypes(highway: HighwayClass, builtUp: Bool) -> [String] {
        let area = builtUp ? "urban" : "rural"
        switch highway {
        case .motorway, .motorwayLink: return ["motorway", area]
        case .trunk, .trunkLink: return builtUp ? ["urban motorroad", "urban"] : ["motorroad", "rural"]
        case .livingStreet: return ["living street", area]
        default: return [area]
        }
    }
}

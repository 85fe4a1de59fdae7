import RoadMap

/// Counts and attribute coverage of a whole map: what `adasis map info` shows.
public struct MapStatistics: Hashable, Sendable {
    /// Tiles in the file.
    public var tiles = 0
    /// Links.
    public var links = 0
    /// Total link length, metres.
    public var length = 0.0
    /// Length per highway class, metres.
    public var lengthByClass: [HighwayClass: Double] = [:]
    /// Drivable direction-length (a two-way link counts twice) by speed-limit kind.
    public var directionLengthBySpeedKind: [SpeedLimitKind: Double] = [:]
    /// Drivable direction-length whose speed limit value is unknown.
    public var directionLengthWithUnknownSpeed = 0.0
    /// Drivable direction-length in total.
    public var directionLength = 0.0
    /// Length with a known lane count in at least one direction.
    public var lengthWithLanes = 0.0
    /// Length of one-way links.
    public var onewayLength = 0.0
    /// Length in tunnels.
    public var tunnelLength = 0.0
    /// Length on bridges.
    public var bridgeLength = 0.0
    /// Length of divided roads.
    public var dividedLength = 0.0
    /// Length with a known built-up-area flag.
    public var lengthWithBuiltUpArea = 0.0
    /// Length with a slope profile.
    public var lengthWithSlope = 0.0
    /// Safety cameras.
    public var safetyCameras = 0
    /// Traffic-signal features (a junction's signals count once per arriving link).
    public var trafficSignalFeatures = 0
    /// Turn restrictions.
    public var turnRestrictions = 0
    /// Road objects per ISO 3166-1 numeric country code (0 unknown) and type: each camera, toll
    /// booth, border control, level crossing and zone once; traffic signals once per placement; a
    /// tunnel or bridge once per OSM way (in the country of its first link read).
    public var roadObjects: [UInt16: [RoadObjectType: Int]] = [:]
    /// OSM ways already counted as a tunnel or bridge.
    private var countedStretchWays: Set<Int64> = []

    /// Reads every tile of `map`.
    public init(map: MapFile) throws {
        for key in try map.tileKeys() {
            let tile = try map.tile(key)
            tiles += 1
            turnRestrictions += tile.restrictions.count
            for link in tile.links { add(link) }
        }
    }

    /// Statistics of a list of links.
    public init(links: [RoadLink]) {
        for link in links { add(link) }
    }

    private mutating func add(_ link: RoadLink) {
        links += 1
        length += link.length
        lengthByClass[link.highway, default: 0] += link.length
        for direction in [LinkDirection.forward, .backward] where link.oneway.allows(direction) {
            let limit = link.attributes(direction).speedLimit
            directionLength += link.length
            directionLengthBySpeedKind[limit.kind, default: 0] += link.length
            if limit.value == .unknown { directionLengthWithUnknownSpeed += link.length }
        }
        if link.forward.lanes != nil || link.backward.lanes != nil { lengthWithLanes += link.length }
        if link.oneway != .no { onewayLength += link.length }
        if link.tunnel == true { tunnelLength += link.length }
        if link.bridge == true { bridgeLength += link.length }
        if link.dividedRoad == true { dividedLength += link.length }
        if link.builtUpArea != nil { lengthWithBuiltUpArea += link.length }
        if !link.slope.isEmpty { lengthWithSlope += link.length }
        for feature in link.features {
            switch feature.kind {
            case .safetyCamera: safetyCameras += 1
            case .trafficSignals: trafficSignalFeatures += 1
            default: break
            }
            if case .zone(let piece) = feature.kind, !piece.isZoneStart { continue }
            if let type = feature.kind.roadObjectType {
                roadObjects[link.countryCode, default: [:]][type, default: 0] += 1
            }
        }
        for (type, flag) in [(RoadObjectType.tunnel, link.tunnel), (.bridge, link.bridge)] where flag == true {
            if countedStretchWays.insert(link.wayID * 2 + (type == .tunnel ? 0 : 1)).inserted {
                roadObjects[link.countryCode, default: [:]][type, default: 0] += 1
            }
        }
    }
}

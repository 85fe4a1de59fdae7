import RoadMap

/// Puts traffic signals and safety cameras on the links they belong to.
///
/// Traffic signals: a `highway=traffic_signals` node inside a link gets a feature at its offset
/// (direction from `traffic_signals:direction`); one at a junction is put on every link that
/// arrives there, at the link's end, for the direction that arrives.
/// Cameras: `highway=speed_camera` nodes and `type=enforcement` relations (placed at their
/// `from` member, else their `device`). An average-speed relation with `from` and `to` members
/// becomes a zone: pieces on the links of the shortest legal drive from `from` to `to`. A camera node on a road is placed there; one beside the
/// road is snapped to the nearest link within the snapping distance. Direction from the
/// `direction` tag (`forward`/`backward` along the way, or a compass bearing or cardinal), else
/// the one-way direction, else both.
struct PointFeaturePlacement {
    var links: [RoadLink]
    /// Where each queried OSM node lies on links: (link index, offset along the link).
    var positionsOfNode: [Int64: [(link: Int, offset: Double)]] = [:]
    private let nodes: [Int64: GeoPoint]

    /// Notes where the `queriedNodes` (see ``queriedNodes(_:enforcement:)``) lie on the links;
    /// the other nodes of a map, millions in a country, are never looked up.
    init(links: [RoadLink], sections: [LinkSection], nodes: [Int64: GeoPoint], queriedNodes: Set<Int64>) {
        self.links = links
        self.nodes = nodes
        for (index, section) in sections.enumerated() {
            var offset = 0.0
            for position in section.nodeIDs.indices {
                if position > 0 { offset += section.geometry[position - 1].distance(to: section.geometry[position]) }
                if queriedNodes.contains(section.nodeIDs[position]) {
                    positionsOfNode[section.nodeIDs[position], default: []].append((index, offset))
                }
            }
        }
    }

    /// The nodes the placements look up: tagged point nodes and the node members of enforcement
    /// relations.
    static func queriedNodes(_ tagsOfNode: [Int64: [String: String]], enforcement: [OSMRelation]) -> Set<Int64> {
        var queried = Set(tagsOfNode.keys)
        for relation in enforcement {
            for member in relation.members where member.type == .node { queried.insert(member.id) }
        }
        return queried
    }

    mutating func placeTrafficSignals(_ tagsOfNode: [Int64: [String: String]], report: inout ImportReport) {
        for (id, tags) in tagsOfNode.sorted(by: { $0.key < $1.key }) where tags["highway"] == "traffic_signals" {
            let tagged = direction(tags["traffic_signals:direction"] ?? tags["direction"])
            if placeOnRoad(.trafficSignals, node: id, direction: tagged) { report.trafficSignals += 1 }
        }
    }

    /// Toll booths (`barrier=toll_booth`), border controls (`barrier=border_control`) and level
    /// crossings (`railway=level_crossing`) on road nodes, placed like traffic signals (both
    /// directions inside a link; at a junction, on every link arriving there).
    mutating func placeRoadNodeObjects(_ tagsOfNode: [Int64: [String: String]]) {
        for (id, tags) in tagsOfNode.sorted(by: { $0.key < $1.key }) {
            guard let kind = PointFeaturePlacement.roadNodeKind(tags) else { continue }
            _ = placeOnRoad(kind, node: id, direction: nil)
        }
    }

    /// The feature a road node's tags describe, other than signals and cameras.
    static func roadNodeKind(_ tags: [String: String]) -> PointFeatureKind? {
        switch (tags["barrier"], tags["railway"]) {
        case ("toll_booth"?, _): return .tollBooth
        case ("border_control"?, _): return .borderControl
        case (_, "level_crossing"?): return .railwayCrossing
        default: return nil
        }
    }

    /// Puts `kind` at road node `node`: inside a link at its offset for `direction`; at a link's
    /// end for the direction arriving there; where nothing arrives, at the start of the links
    /// leaving. Whether it was placed on any link.
    mutating func placeOnRoad(_ kind: PointFeatureKind, node: Int64, direction: LinkDirection?) -> Bool {
        guard let positions = positionsOfNode[node] else { return false }
        var placed = false
        for (index, offset) in positions {
            let link = links[index]
            if offset > 0.01 && offset < link.length - 0.01 {
                add(PointFeature(kind: kind, offset: offset, direction: direction), to: index)
                placed = true
            } else if offset >= link.length - 0.01, link.oneway.allows(.forward) {
                add(PointFeature(kind: kind, offset: link.length, direction: .forward), to: index)
                placed = true
            } else if offset <= 0.01, link.oneway.allows(.backward) {
                add(PointFeature(kind: kind, offset: 0, direction: .backward), to: index)
                placed = true
            }
        }
        // No kept link arrives (the road in comes from outside the extract): at the start of the
        // links leaving the node.
        var leaving = false
        for (index, offset) in positions where !placed {
            let link = links[index]
            if offset <= 0.01, link.oneway.allows(.forward) {
                add(PointFeature(kind: kind, offset: 0, direction: .forward), to: index)
                leaving = true
            } else if offset >= link.length - 0.01, link.oneway.allows(.backward) {
                add(PointFeature(kind: kind, offset: link.length, direction: .backward), to: index)
                leaving = true
            }
        }
        return placed || leaving
    }

    mutating func placeCameras(
        _ tagsOfNode: [Int64: [String: String]], enforcement: [OSMRelation],
        snapDistance: Double, report: inout ImportReport
    ) {
        var cameraNodes: [(node: Int64, tags: [String: String])] = []
        var zones: [(relation: OSMRelation, from: Int64, to: Int64, tags: [String: String])] = []
        var covered = Set<Int64>()
        for relation in enforcement.sorted(by: { $0.id < $1.id }) {
            guard let type = SafetyCameraTags.cameraType(for: relation.tags) else { continue }
            let from = relation.members.first { $0.type == .node && $0.role == "from" }
            let to = relation.members.first { $0.type == .node && $0.role == "to" }
            let device = relation.members.first { $0.type == .node && $0.role == "device" }
            guard let anchor = from ?? device else { continue }
            if let device { covered.insert(device.id) }
            var tags = relation.tags
            if tags["direction"] == nil, let deviceTags = device.flatMap({ tagsOfNode[$0.id] }) {
                tags["direction"] = deviceTags["direction"]
            }
            if type == .averageSpeedZone, let from, let to {
                zones.append((relation, from.id, to.id, tags))
            } else {
                cameraNodes.append((anchor.id, tags))
            }
        }
        for (id, tags) in tagsOfNode.sorted(by: { $0.key < $1.key })
        where tags["highway"] == "speed_camera" && !covered.contains(id) {
            cameraNodes.append((id, tags))
        }
        // Nodes beside the road: their nearest link within the snapping distance, found in one
        // pass over the links for all of them (no spatial index of the whole map is kept).
        let besideRoad = Set(zones.flatMap { [$0.from, $0.to] } + cameraNodes.map(\.node)).filter {
            positionsOfNode[$0] == nil && nodes[$0] != nil
        }
        let snapped = NearestLink.find(
            for: besideRoad.sorted().map { ($0, nodes[$0]!) }, among: links, within: snapDistance)
        func locate(_ node: Int64) -> (link: Int, offset: Double, bearing: Double)? {
            if let positions = positionsOfNode[node], let (linkIndex, offset) = positions.first {
                return (linkIndex, offset, links[linkIndex].geometry.point(atOffset: offset)?.bearing ?? 0)
            }
            return snapped[node].map { ($0.link, $0.projection.offset, $0.projection.bearing) }
        }
        let router = zones.isEmpty ? nil : ZoneRoute(links: links)
        for zone in zones {
            let limit = SafetyCameraTags.enforcedLimit(for: zone.tags)
            guard let from = locate(zone.from), let to = locate(zone.to), let router,
                let pieces = router.pieces(
                    from: .init(link: from.link, offset: from.offset), to: .init(link: to.link, offset: to.offset),
                    maximumLength: PointFeaturePlacement.longestZone)
            else {
                // No drive between the members: the zone is kept as a point at its start.
                report.unroutedZones = (report.unroutedZones ?? 0) + 1
                cameraNodes.append((zone.from, zone.tags))
                continue
            }
            for (position, piece) in pieces.enumerated() {
                let zonePiece = ZonePiece(
                    type: .averageSpeedZone, zone: zone.relation.id, length: piece.end - piece.start,
                    isZoneStart: position == 0, isZoneEnd: position == pieces.count - 1, speedLimit: limit)
                add(
                    PointFeature(kind: .zone(zonePiece), offset: piece.start, direction: piece.direction),
                    to: piece.link)
            }
            report.averageSpeedZones = (report.averageSpeedZones ?? 0) + 1
        }
        for (id, tags) in cameraNodes {
            guard let type = SafetyCameraTags.cameraType(for: tags) else { continue }
            let kind = PointFeatureKind.safetyCamera(type, speedLimit: SafetyCameraTags.enforcedLimit(for: tags))
            guard let place = locate(id) else {
                report.unplacedSafetyCameras += 1
                continue
            }
            let link = links[place.link]
            add(
                PointFeature(
                    kind: kind, offset: place.offset,
                    direction: cameraDirection(tags["direction"], linkBearing: place.bearing, oneway: link.oneway)),
                to: place.link)
            report.safetyCameras += 1
        }
    }

    /// The longest average-speed zone looked for between its members, metres.
    static let longestZone = 50_000.0

    mutating func add(_ feature: PointFeature, to index: Int) {
        links[index].features.append(feature)
        links[index].features.sort { $0.offset < $1.offset }
    }

    private func direction(_ value: String?) -> LinkDirection? {
        switch value {
        case "forward"?: return .forward
        case "backward"?: return .backward
        default: return nil
        }
    }

    private func cameraDirection(_ tagged: String?, linkBearing: Double, oneway: Oneway) -> LinkDirection? {
        if let relative = direction(tagged) { return relative }
        if let tagged, let bearing = PointFeaturePlacement.compassBearing(tagged) {
            let difference = abs(bearing - linkBearing).truncatingRemainder(dividingBy: 360)
            return min(difference, 360 - difference) <= 90 ? .forward : .backward
        }
        switch oneway {
        case .forward: return .forward
        case .backward: return .backward
        case .no: return nil
        }
    }

    /// A compass bearing from a `direction` value: degrees (`45`) or a cardinal (`NE`).
    static func compassBearing(_ text: String) -> Double? {
        if let degrees = Double(text), degrees.isFinite { return degrees }
        let cardinals = [
            "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
        ]
        return cardinals.firstIndex(of: text.uppercased()).map { Double($0) * 22.5 }
    }
}

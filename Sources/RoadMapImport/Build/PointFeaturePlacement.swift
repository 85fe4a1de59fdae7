import RoadMap

/// Puts traffic signals and safety cameras on the links they belong to.
///
/// Traffic signals: a `highway=traffic_signals` node inside a link gets a feature at its offset
/// (direction from `traffic_signals:direction`); one at a junction is put on every link that
/// arrives there, at the link's end, for the direction that arrives.
/// Cameras: `highway=speed_camera` nodes and `type=enforcement` relations (placed at their
/// `from` member, else their `device`). A camera node on a road is placed there; one beside the
/// road is snapped to the nearest link within the snapping distance. Direction from the
/// `direction` tag (`forward`/`backward` along the way, or a compass bearing or cardinal), else
/// the one-way direction, else both.
struct PointFeaturePlacement {
    var links: [RoadLink]
    /// Where each OSM node lies on links: (link index, offset along the link).
    private var positionsOfNode: [Int64: [(link: Int, offset: Double)]] = [:]
    private let nodes: [Int64: GeoPoint]

    init(links: [RoadLink], sections: [LinkSection], nodes: [Int64: GeoPoint]) {
        self.links = links
        self.nodes = nodes
        for (index, section) in sections.enumerated() {
            var offset = 0.0
            for position in section.nodeIDs.indices {
                if position > 0 { offset += section.geometry[position - 1].distance(to: section.geometry[position]) }
                positionsOfNode[section.nodeIDs[position], default: []].append((index, offset))
            }
        }
    }

    mutating func placeTrafficSignals(_ tagsOfNode: [Int64: [String: String]], report: inout ImportReport) {
        for (id, tags) in tagsOfNode.sorted(by: { $0.key < $1.key }) where tags["highway"] == "traffic_signals" {
            guard let positions = positionsOfNode[id] else { continue }
            let tagged = direction(tags["traffic_signals:direction"] ?? tags["direction"])
            var placed = false
            for (index, offset) in positions {
                let link = links[index]
                if offset > 0.01 && offset < link.length - 0.01 {
                    add(PointFeature(kind: .trafficSignals, offset: offset, direction: tagged), to: index)
                    placed = true
                } else if offset >= link.length - 0.01, link.oneway.allows(.forward) {
                    add(PointFeature(kind: .trafficSignals, offset: link.length, direction: .forward), to: index)
                    placed = true
                } else if offset <= 0.01, link.oneway.allows(.backward) {
                    add(PointFeature(kind: .trafficSignals, offset: 0, direction: .backward), to: index)
                    placed = true
                }
            }
            if placed { report.trafficSignals += 1 }
        }
    }

    mutating func placeCameras(
        _ tagsOfNode: [Int64: [String: String]], enforcement: [OSMRelation],
        snapDistance: Double, report: inout ImportReport
    ) {
        var cameraNodes: [(node: Int64, tags: [String: String])] = []
        var covered = Set<Int64>()
        for relation in enforcement.sorted(by: { $0.id < $1.id }) {
            guard SafetyCameraTags.cameraType(for: relation.tags) != nil else { continue }
            let from = relation.members.first { $0.type == .node && $0.role == "from" }
            let device = relation.members.first { $0.type == .node && $0.role == "device" }
            guard let anchor = from ?? device else { continue }
            if let device { covered.insert(device.id) }
            var tags = relation.tags
            if tags["direction"] == nil, let deviceTags = device.flatMap({ tagsOfNode[$0.id] }) {
                tags["direction"] = deviceTags["direction"]
            }
            cameraNodes.append((anchor.id, tags))
        }
        for (id, tags) in tagsOfNode.sorted(by: { $0.key < $1.key })
        where tags["highway"] == "speed_camera" && !covered.contains(id) {
            cameraNodes.append((id, tags))
        }
        let index = InMemoryRoadNetwork(
            links: links.enumerated().map { offset, link in
                var copy = link
                copy.id = LinkID(UInt64(offset))
                return copy
            })
        for (id, tags) in cameraNodes {
            guard let type = SafetyCameraTags.cameraType(for: tags) else { continue }
            let kind = PointFeatureKind.safetyCamera(type, speedLimit: SafetyCameraTags.enforcedLimit(for: tags))
            let tagged = tags["direction"]
            if let positions = positionsOfNode[id], let (linkIndex, offset) = positions.first {
                let link = links[linkIndex]
                let bearing = link.geometry.point(atOffset: offset)?.bearing ?? 0
                add(
                    PointFeature(
                        kind: kind, offset: offset,
                        direction: cameraDirection(tagged, linkBearing: bearing, oneway: link.oneway)), to: linkIndex)
                report.safetyCameras += 1
                continue
            }
            guard let point = nodes[id],
                let nearby = try? index.links(near: point, radius: snapDistance),
                let nearest = nearby.compactMap({ link in link.geometry.project(point).map { (link, $0) } })
                    .min(by: { ($0.1.distance, $0.0.id) < ($1.1.distance, $1.0.id) })
            else {
                report.unplacedSafetyCameras += 1
                continue
            }
            let linkIndex = Int(nearest.0.id.rawValue)
            add(
                PointFeature(
                    kind: kind, offset: nearest.1.offset,
                    direction: cameraDirection(tagged, linkBearing: nearest.1.bearing, oneway: nearest.0.oneway)),
                to: linkIndex)
            report.safetyCameras += 1
        }
    }

    private mutating func add(_ feature: PointFeature, to index: Int) {
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

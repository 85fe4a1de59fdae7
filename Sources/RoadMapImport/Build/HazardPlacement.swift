import RoadMap

extension PointFeaturePlacement {
    /// Hazards (``RoadMap/RoadObjectType/hazard``) from `hazard=*` tags: a road way's become a
    /// stretch over all its links, in each direction its one-way allows (zone number: the way's
    /// id); a road node's a point there, placed like traffic signals (zone number: the node's id,
    /// negated, so that it never meets a way's). Each carries its kind (``RoadMap/HazardKind``).
    /// Their number goes to `report.hazards`.
    mutating func placeHazards(
        ways hazardWays: [Int64: HazardKind], _ tagsOfNode: [Int64: [String: String]], report: inout ImportReport
    ) {
        var count = 0
        let wanted = Set(hazardWays.keys)
        var linksOfWay: [Int64: [Int]] = [:]
        for (index, link) in links.enumerated() where wanted.contains(link.wayID) {
            linksOfWay[link.wayID, default: []].append(index)
        }
        for (way, kind) in hazardWays.sorted(by: { $0.key < $1.key }) {
            guard let indices = linksOfWay[way] else { continue }
            for direction in [LinkDirection.forward, .backward] {
                let driven = indices.filter { links[$0].oneway.allows(direction) }
                guard !driven.isEmpty else { continue }
                let entries = Set(driven.map { links[$0].entryNode(direction) })
                let exits = Set(driven.map { links[$0].exitNode(direction) })
                for index in driven {
                    let link = links[index]
                    let piece = ZonePiece(
                        type: .hazard, zone: way, length: link.length,
                        isZoneStart: !exits.contains(link.entryNode(direction)),
                        isZoneEnd: !entries.contains(link.exitNode(direction)), speedLimit: nil, hazard: kind)
                    add(PointFeature(kind: .zone(piece), offset: 0, direction: direction), to: index)
                }
                count += 1
            }
        }
        for (id, tags) in tagsOfNode.sorted(by: { $0.key < $1.key }) {
            guard let hazard = tags["hazard"] else { continue }
            let piece = ZonePiece(
                type: .hazard, zone: -id, length: 0, isZoneStart: true, isZoneEnd: true, speedLimit: nil,
                hazard: HazardKind(osm: hazard))
            if placeOnRoad(.zone(piece), node: id, direction: nil) { count += 1 }
        }
        report.hazards = count
    }
}

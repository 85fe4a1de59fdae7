import RoadMap

/// One section of a road way between two junctions: becomes one ``RoadLink``.
struct LinkSection: Sendable {
    /// The OSM way.
    var wayID: Int64
    /// Position of the section within its way (0, 1, …).
    var index: Int
    /// The OSM nodes of the section, in way order.
    var nodeIDs: [Int64]
    /// Their coordinates.
    var geometry: [GeoPoint]
}

/// Splits road ways at junctions: nodes shared by two ways (or used twice by one way, as a
/// loop does) and way ends.
enum LinkSections {
    /// Every way has at least two nodes, all in `nodes` (the builder clips ways to known nodes
    /// first), which the force unwraps below rely on.
    static func split(_ ways: [RoadGraphBuilder.RoadWay], nodes: [Int64: GeoPoint]) -> [LinkSection] {
        var use: [Int64: Int] = [:]
        for way in ways {
            for id in way.nodeIDs { use[id, default: 0] += 1 }
            use[way.nodeIDs.first!, default: 0] += 1
            use[way.nodeIDs.last!, default: 0] += 1
        }
        var sections: [LinkSection] = []
        for way in ways {
            var start = 0
            var index = 0
            for position in 1..<way.nodeIDs.count
            where position == way.nodeIDs.count - 1 || use[way.nodeIDs[position]]! >= 2 {
                let ids = Array(way.nodeIDs[start...position])
                sections.append(
                    LinkSection(wayID: way.id, index: index, nodeIDs: ids, geometry: ids.map { nodes[$0]! }))
                index += 1
                start = position
            }
        }
        return sections
    }
}

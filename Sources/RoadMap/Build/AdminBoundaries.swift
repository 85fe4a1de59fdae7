/// A country or region whose complete boundary the extract holds.
struct AdminArea: Sendable {
    /// ISO 3166-1 alpha-2 (countries) or ISO 3166-2 (regions) code.
    var code: String
    /// OSM admin_level: 2 country, 4 region.
    var level: Int
    /// Closed rings (outer and inner); a point is inside when an odd number of rings surround it.
    var rings: [[GeoPoint]]
    private var south = Double.infinity, west = Double.infinity, north = -Double.infinity, east = -Double.infinity

    init(code: String, level: Int, rings: [[GeoPoint]]) {
        self.code = code
        self.level = level
        self.rings = rings
        for point in rings.joined() {
            south = min(south, point.latitude); north = max(north, point.latitude)
            west = min(west, point.longitude); east = max(east, point.longitude)
        }
    }

    /// Even-odd point-in-polygon test over all rings.
    func contains(_ point: GeoPoint) -> Bool {
        guard point.latitude >= south, point.latitude <= north, point.longitude >= west, point.longitude <= east else { return false }
        var inside = false
        for ring in rings {
            var previous = ring[ring.count - 1]
            for current in ring {
                if (current.latitude > point.latitude) != (previous.latitude > point.latitude) {
                    let crossing = previous.longitude + (point.latitude - previous.latitude)
                        / (current.latitude - previous.latitude) * (current.longitude - previous.longitude)
                    if point.longitude < crossing { inside.toggle() }
                }
                previous = current
            }
        }
        return inside
    }
}

/// Finds the administrative boundaries of an extract (`type=boundary` or `multipolygon`,
/// `boundary=administrative`; countries: `admin_level=2` with `ISO3166-1` or `ISO3166-1:alpha2`;
/// regions: `admin_level=4` with `ISO3166-2`) and assembles complete ones into rings. A boundary
/// with a member way or node missing from the extract, or whose ways do not close into rings, is
/// incomplete: it is skipped and counted (a bounding-box clip rarely holds a whole country).
enum AdminBoundaries {
    /// The code and level a relation describes, `nil` when it is not a usable admin boundary.
    static func describe(_ relation: OSMRelation) -> (code: String, level: Int)? {
        let tags = relation.tags
        guard tags["type"] == "boundary" || tags["type"] == "multipolygon", tags["boundary"] == "administrative" else { return nil }
        switch tags["admin_level"] {
        case "2"?:
            guard let code = tags["ISO3166-1"] ?? tags["ISO3166-1:alpha2"], code.count == 2 else { return nil }
            return (code.uppercased(), 2)
        case "4"?:
            guard let code = tags["ISO3166-2"], code.contains("-") else { return nil }
            return (code.uppercased(), 4)
        default:
            return nil
        }
    }

    /// The way ids the boundary relations need (so the builder keeps their node lists).
    static func memberWays(_ relations: [OSMRelation]) -> Set<Int64> {
        Set(relations.filter { describe($0) != nil }.flatMap { $0.members.filter { $0.type == .way }.map(\.id) })
    }

    /// The complete areas; `incomplete` counts the skipped boundaries.
    static func areas(_ relations: [OSMRelation], wayNodes: [Int64: [Int64]], nodes: [Int64: GeoPoint],
                      incomplete: inout Int) -> [AdminArea] {
        var result: [AdminArea] = []
        for relation in relations.sorted(by: { $0.id < $1.id }) {
            guard let (code, level) = describe(relation) else { continue }
            let members = relation.members.filter { $0.type == .way && ($0.role == "outer" || $0.role == "inner" || $0.role.isEmpty) }
            var lines: [[Int64]] = []
            var complete = !members.isEmpty
            for member in members {
                guard let ids = wayNodes[member.id], ids.count >= 2, ids.allSatisfy({ nodes[$0] != nil }) else {
                    complete = false
                    break
                }
                lines.append(ids)
            }
            guard complete, let rings = closedRings(lines) else {
                incomplete += 1
                continue
            }
            result.append(AdminArea(code: code, level: level, rings: rings.map { $0.map { nodes[$0]! } }))
        }
        return result
    }

    /// Joins ways end to end into closed rings; `nil` when some cannot be closed.
    static func closedRings(_ lines: [[Int64]]) -> [[Int64]]? {
        var open = lines
        var rings: [[Int64]] = []
        while var ring = open.popLast() {
            while ring.first != ring.last {
                guard let index = open.firstIndex(where: { $0.first == ring.last || $0.last == ring.last }) else { return nil }
                let next = open.remove(at: index)
                ring += (next.first == ring.last ? next : next.reversed()).dropFirst()
            }
            guard ring.count >= 4 else { return nil }
            rings.append(ring)
        }
        return rings
    }
}

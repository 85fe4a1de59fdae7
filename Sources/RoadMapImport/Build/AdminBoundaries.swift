import RoadMap

/// Finds the administrative boundaries of an extract (`type=boundary` or `multipolygon`,
/// `boundary=administrative`; countries: `admin_level=2` with `ISO3166-1` or `ISO3166-1:alpha2`;
/// regions: `admin_level=4` with `ISO3166-2`) and assembles complete ones into rings. A boundary
/// with a member way or node missing from the extract (including a way's nodes and node members
/// such as `admin_centre`), or whose ways do not close into rings, is incomplete: it is skipped
/// and counted (a bounding-box clip rarely holds a whole country).
enum AdminBoundaries {
    /// The code and level a relation describes, `nil` when it is not a usable admin boundary.
    static func describe(_ relation: OSMRelation) -> (code: String, level: Int)? {
        let tags = relation.tags
        guard tags["type"] == "boundary" || tags["type"] == "multipolygon", tags["boundary"] == "administrative" else {
            return nil
        }
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

    /// The node members of the boundary relations (`admin_centre`, `label`): part of completeness.
    static func memberNodes(_ relation: OSMRelation) -> [Int64] {
        relation.members.filter { $0.type == .node }.map(\.id)
    }

    /// The complete areas; `incomplete` counts the skipped boundaries.
    static func areas(
        _ relations: [OSMRelation], wayNodes: [Int64: [Int64]], nodes: [Int64: GeoPoint],
        incomplete: inout Int
    ) -> [AdminBoundaryArea] {
        var result: [AdminBoundaryArea] = []
        for relation in relations.sorted(by: { $0.id < $1.id }) {
            guard let (code, level) = describe(relation) else { continue }
            let members = relation.members.filter {
                $0.type == .way && ($0.role == "outer" || $0.role == "inner" || $0.role.isEmpty)
            }
            var lines: [[Int64]] = []
            var complete = !members.isEmpty && memberNodes(relation).allSatisfy { nodes[$0] != nil }
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
            // `complete` checked that every member node is known.
            result.append(AdminBoundaryArea(code: code, level: level, rings: rings.map { $0.map { nodes[$0]! } }))
        }
        return result
    }

    /// Joins ways end to end into closed rings (either way round); `nil` when some cannot be
    /// closed. Ways are found by their end nodes, so a boundary of thousands of ways joins in
    /// linear time.
    static func closedRings(_ lines: [[Int64]]) -> [[Int64]]? {
        var byEnd: [Int64: [Int]] = [:]
        for (index, line) in lines.enumerated() {
            byEnd[line[0], default: []].append(index)
            byEnd[line[line.count - 1], default: []].append(index)
        }
        var used = [Bool](repeating: false, count: lines.count)
        var rings: [[Int64]] = []
        for start in lines.indices where !used[start] {
            used[start] = true
            var ring = lines[start]
            while ring.first != ring.last {
                guard let next = byEnd[ring[ring.count - 1]]?.first(where: { !used[$0] }) else { return nil }
                used[next] = true
                let line = lines[next]
                ring += (line[0] == ring[ring.count - 1] ? line : line.reversed()).dropFirst()
            }
            guard ring.count >= 4 else { return nil }
            rings.append(ring)
        }
        return rings
    }
}

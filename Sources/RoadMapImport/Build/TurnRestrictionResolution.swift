import RoadMap

/// Turns `type=restriction` relations into link-to-link ``TurnRestriction``s.
///
/// Supported: `restriction` (or `restriction:motorcar`) `no_*` (prohibitory) and `only_*`
/// (mandatory) with a `from` way, a `via` node and a `to` way; relations whose `except` names
/// motor cars are ignored. Via-way restrictions, members outside the extract and unknown values
/// are counted as unusable.
enum TurnRestrictionResolution {
    static func resolve(_ relations: [OSMRelation], links: [RoadLink], report: inout ImportReport) -> [TurnRestriction]
    {
        var linksOfWay: [Int64: [Int]] = [:]
        for (index, link) in links.enumerated() { linksOfWay[link.wayID, default: []].append(index) }
        var result: [TurnRestriction] = []
        for relation in relations.sorted(by: { $0.id < $1.id }) {
            if let except = relation.tags["except"], except.split(separator: ";").contains(where: { $0 == "motorcar" })
            {
                continue
            }
            guard let value = relation.tags["restriction:motorcar"] ?? relation.tags["restriction"] else {
                report.unusableTurnRestrictions += 1
                continue
            }
            let kind: TurnRestriction.Kind
            if value.hasPrefix("no_") {
                kind = .prohibitory
            } else if value.hasPrefix("only_") {
                kind = .mandatory
            } else {
                report.unusableTurnRestrictions += 1
                continue
            }
            let from = relation.members.filter { $0.type == .way && $0.role == "from" }
            let to = relation.members.filter { $0.type == .way && $0.role == "to" }
            let via = relation.members.filter { $0.role == "via" }
            guard from.count == 1, to.count == 1, via.count == 1, via[0].type == .node else {
                report.unusableTurnRestrictions += 1
                continue
            }
            let viaNode = NodeID(via[0].id)
            func link(of way: Int64) -> LinkID? {
                linksOfWay[way]?.lazy.map { links[$0] }.first { $0.startNode == viaNode || $0.endNode == viaNode }?.id
            }
            guard let fromLink = link(of: from[0].id), let toLink = link(of: to[0].id) else {
                report.unusableTurnRestrictions += 1
                continue
            }
            result.append(TurnRestriction(from: fromLink, via: viaNode, to: toLink, kind: kind))
        }
        report.turnRestrictions = result.count
        return result
    }
}

import RoadMap

/// Everything the map stores for one tile: what a reader needs to answer spatial and graph
/// queries from this tile alone.
public struct MapTile: Hashable, Sendable {
    /// Links whose first geometry point lies in this tile (their home tile).
    public var links: [RoadLink]
    /// Links stored in another tile whose geometry crosses this one, sorted: a radius query reads
    /// them from their home tiles.
    public var passingLinks: [LinkID]
    /// For each junction node lying in this tile, the links that start or end there, sorted.
    public var linksAtNode: [NodeID: [LinkID]]
    /// Turn restrictions whose via node lies in this tile.
    public var restrictions: [TurnRestriction]
    /// The longest way on from the start of this tile's directed links that end within
    /// ``LongestWaysOn/storedLimit`` (cul-de-sacs and the links into them), metres; a directed
    /// link not here leads on.
    public var longestWaysOn: [DirectedLink: Double]
    /// The legal successors of each link of ``links``, both directions (``RoadTurns``); empty
    /// (no links) or exactly one pair of lists per link.
    public var turns: TileTurns

    /// Creates a tile.
    public init(
        links: [RoadLink], passingLinks: [LinkID] = [], linksAtNode: [NodeID: [LinkID]] = [:],
        restrictions: [TurnRestriction] = [], longestWaysOn: [DirectedLink: Double] = [:],
        turns: TileTurns = TileTurns()
    ) {
        self.links = links
        self.passingLinks = passingLinks
        self.linksAtNode = linksAtNode
        self.restrictions = restrictions
        self.longestWaysOn = longestWaysOn
        self.turns = turns
    }

    /// An estimate of the memory the decoded tile holds, bytes (for the cache's byte budget).
    package var estimatedByteCount: Int {
        var total =
            64 + passingLinks.count * 8 + restrictions.count * 32 + longestWaysOn.count * 48
            + turns.starts.count * 4 + turns.successors.count * 16
        for link in links {
            total +=
                400 + link.geometry.count * 16 + (link.curvature.count + link.slope.count) * 16
                + link.features.count * 40 + (link.name?.utf8.count ?? 0) + (link.ref?.utf8.count ?? 0)
        }
        for (_, ids) in linksAtNode { total += 48 + ids.count * 8 }
        return total
    }
}

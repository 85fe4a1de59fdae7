import RoadMap

/// The decoded tiles of a map file and the location of their junction nodes, under one byte
/// budget: the only cache of map reads (``MapFile`` owns one).
///
/// Tiles are kept least recently used first out (``ByteBudgetCache``). The node index only holds
/// the nodes of cached tiles and is charged to their cost, so it leaves with its tile and never
/// grows past the budget. Not thread-safe by itself: the owner serialises access.
struct MapTileCache {
    /// Bytes charged per node index entry (a node, its tile key and the dictionary's share).
    static let nodeEntryCost = 32

    private var tiles: ByteBudgetCache<TileKey, IndexedTile>
    private var nodeTiles: [NodeID: TileKey] = [:]

    /// Creates an empty cache holding at most `byteBudget` bytes.
    init(byteBudget: Int) {
        tiles = ByteBudgetCache(byteBudget: byteBudget)
    }

    /// The budget in bytes.
    var byteBudget: Int { tiles.byteBudget }
    /// The bytes charged for what is cached, node index included.
    var byteCount: Int { tiles.totalCost }
    /// The number of tiles cached.
    var tileCount: Int { tiles.count }
    /// The number of nodes whose tile is known without reading the file.
    var nodeCount: Int { nodeTiles.count }

    /// The cached tile `key`, marked most recently used.
    mutating func tile(_ key: TileKey) -> IndexedTile? { tiles.value(for: key) }

    /// The link at `index` of cached tile `key` (marked most recently used), read in place:
    /// `.some(nil)` when the tile has no link there, `nil` when the tile is not cached.
    mutating func link(at index: Int, inTile key: TileKey) -> RoadLink?? {
        tiles.withValue(for: key) { indexed in
            indexed.tile.links.indices.contains(index) ? indexed.tile.links[index] : nil
        }
    }

    /// `body` applied to the link at `index` of cached tile `key` (marked most recently used), read
    /// in place, for a few fields of a link without copying all of it: `.some(nil)` when the tile
    /// has no link there, `nil` when the tile is not cached.
    mutating func withLink<Result>(at index: Int, inTile key: TileKey, _ body: (borrowing RoadLink) -> Result)
        -> Result??
    {
        tiles.withValue(for: key) { indexed in
            indexed.tile.links.indices.contains(index) ? body(indexed.tile.links[index]) : nil
        }
    }

    /// The links meeting at `node` in cached tile `key` (marked most recently used), read in
    /// place; `nil` when the tile is not cached.
    mutating func links(at node: NodeID, inTile key: TileKey) -> [LinkID]? {
        tiles.withValue(for: key) { indexed in indexed.tile.linksAtNode[node] ?? [] }
    }

    /// The successors stored for the link at `index` of cached tile `key` driven in `direction`
    /// (marked most recently used), read in place: `.some(nil)` when the tile has no link `id`
    /// there, `nil` when the tile is not cached.
    mutating func successors(ofLinkAt index: Int, _ direction: LinkDirection, id: LinkID, inTile key: TileKey)
        -> [DirectedLink]??
    {
        tiles.withValue(for: key) { indexed in Self.successors(in: indexed.tile, ofLinkAt: index, direction, id: id) }
    }

    /// The successors `tile` stores for its link at `index` driven in `direction`; `nil` when its
    /// link there is not `id`.
    static func successors(in tile: MapTile, ofLinkAt index: Int, _ direction: LinkDirection, id: LinkID)
        -> [DirectedLink]?
    {
        guard tile.links.indices.contains(index), tile.links[index].id == id, index < tile.turns.linkCount else {
            return nil
        }
        return Array(tile.turns.successors(ofLinkAt: index, direction))
    }

    /// The longest way on stored for `directedLink` in cached tile `key` (marked most recently
    /// used), `.infinity` when none is stored (it leads on); `nil` when the tile is not cached.
    mutating func longestWayOn(_ directedLink: DirectedLink, inTile key: TileKey) -> Double? {
        tiles.withValue(for: key) { indexed in indexed.tile.longestWaysOn[directedLink] ?? .infinity }
    }

    /// Records the boxes of cached tile `key`'s passing links (nothing when it is no longer cached).
    mutating func setPassingBounds(_ bounds: [LinkBounds], ofTile key: TileKey) {
        tiles.withValue(for: key) { indexed in indexed.passingBounds = bounds }
    }

    /// Whether tile `key` is cached (does not change its recency).
    func contains(_ key: TileKey) -> Bool { tiles.contains(key) }

    /// The tile of `node` when it is a node of a cached tile.
    func tileKey(of node: NodeID) -> TileKey? { nodeTiles[node] }

    /// Caches `tile` read for `key` with its nodes, evicting least recently used tiles (and their
    /// nodes) to stay within the budget. A tile larger than the whole budget is not kept.
    mutating func insert(_ tile: IndexedTile, for key: TileKey) {
        let nodes = tile.tile.linksAtNode.keys
        // 32 bytes a link for its box, own or passing (those are worked out later, in place).
        let boxes = (tile.tile.links.count + tile.tile.passingLinks.count) * 32
        let cost = tile.tile.estimatedByteCount + boxes + nodes.count * MapTileCache.nodeEntryCost
        let evicted = tiles.insert(tile, for: key, cost: cost)
        for (evictedKey, evictedTile) in evicted {
            for node in evictedTile.tile.linksAtNode.keys where nodeTiles[node] == evictedKey {
                nodeTiles.removeValue(forKey: node)
            }
        }
        guard tiles.contains(key) else { return }
        for node in nodes { nodeTiles[node] = key }
    }
}

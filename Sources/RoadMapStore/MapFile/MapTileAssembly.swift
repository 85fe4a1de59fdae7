import RoadMap

/// Distributes a built road graph over tiles: each link in its home tile (from its identifier),
/// references in every other tile its geometry crosses, node adjacency and turn restrictions in
/// the tile of their node, the legal turns (``RoadTurns``) and the longest ways on
/// (``LongestWaysOn``) with their link.
enum MapTileAssembly {
    static func tiles(of graph: RoadGraph) -> [TileKey: MapTile] {
        var tiles: [TileKey: MapTile] = [:]
        var nodeTile: [NodeID: TileKey] = [:]
        // In identifier order (a graph's links are: RoadGraph), each tile's links come in order.
        let isSorted = zip(graph.links, graph.links.dropFirst()).allSatisfy { $0.id < $1.id }
        let links = isSorted ? graph.links : graph.links.sorted { $0.id < $1.id }
        let turns = RoadTurns(links: links, restrictions: graph.restrictions)
        for (index, link) in links.enumerated() {
            // The graph builder gives every link an identifier in its tile (LinkID(tile:index:)).
            let home = link.id.tile!
            tiles[home, default: MapTile(links: [])].links.append(link)
            tiles[home]!.turns.append(
                forward: turns.successors(ofLinkAt: index, .forward),
                backward: turns.successors(ofLinkAt: index, .backward))
            for tile in crossedTiles(link.geometry) where tile != home {
                tiles[tile, default: MapTile(links: [])].passingLinks.append(link.id)
            }
            guard let start = link.geometry.first, let end = link.geometry.last else { continue }
            for (node, point) in [(link.startNode, start), (link.endNode, end)] {
                let tile = TileKey(containing: point)
                nodeTile[node] = tile
                var ids = tiles[tile, default: MapTile(links: [])].linksAtNode[node, default: []]
                if !ids.contains(link.id) { ids.append(link.id) }
                tiles[tile, default: MapTile(links: [])].linksAtNode[node] = ids
            }
        }
        for (directed, length) in LongestWaysOn.lengths(of: turns) {
            tiles[directed.link.tile!, default: MapTile(links: [])].longestWaysOn[directed] = length
        }
        for restriction in graph.restrictions {
            guard let tile = nodeTile[restriction.via] else { continue }
            tiles[tile, default: MapTile(links: [])].restrictions.append(restriction)
        }
        tiles = tiles.mapValues { tile in
            var tile = tile
            tile.passingLinks.sort()
            tile.linksAtNode = tile.linksAtNode.mapValues { $0.sorted() }
            return tile
        }
        return tiles
    }

    /// The tiles a polyline passes through (sampled at a quarter tile, plus every vertex).
    static func crossedTiles(_ geometry: [GeoPoint]) -> Set<TileKey> {
        var result = Set(geometry.map { TileKey(containing: $0) })
        for i in 1..<max(1, geometry.count) {
            let a = geometry[i - 1], b = geometry[i]
            let steps = Int(
                max(abs(b.latitude - a.latitude), abs(b.longitude - a.longitude)) / (TileKey.sizeDegrees / 4))
            guard steps > 0 else { continue }
            for s in 1...steps {
                let t = Double(s) / Double(steps + 1)
                result.insert(
                    TileKey(
                        containing: GeoPoint(
                            latitude: a.latitude + (b.latitude - a.latitude) * t,
                            longitude: a.longitude + (b.longitude - a.longitude) * t)))
            }
        }
        return result
    }
}

import Foundation
import RoadMap

/// A map file opened for reading: the ``RoadNetwork`` the matcher and horizon engine use on a
/// head unit, and the one caching layer between them and the file.
///
/// Tiles are read on demand and kept, with the location of their junction nodes, in one cache
/// under one byte budget (``MapTileCache``); ``prefetch(around:radius:)`` loads the tiles around
/// the vehicle ahead of need. Opening checks that the file is an adasis map of a supported format;
/// every tile is checked against its CRC when read. Not thread-safe: use one instance per thread.
public final class MapFile: RoadNetwork {
    /// The file's path.
    public var path: String { database.path }
    /// What the map says about itself.
    public var metadata: MapMetadata { database.metadata }
    /// Tiles read from disk since opening (cache misses).
    public private(set) var tileReads = 0
    private let database: MapDatabase
    private(set) var cache: MapTileCache
    /// The links holding a safety location read from the map's index (``SafetyLinkIndex``), kept
    /// apart from the tile cache.
    private var safetyLinks: [LinkID: RoadLink] = [:]
    /// Centre tile and radius of the last prefetch, and the tiles around it still to read.
    private var lastPrefetch: (centre: TileKey, radius: Double)?
    private var prefetchQueue: [TileKey] = []

    /// Opens `path`; `cacheBytes` bounds the memory of decoded tiles and their node index
    /// (default 64 MiB).
    public init(path: String, cacheBytes: Int = 64 << 20) throws(MapFileError) {
        database = try MapDatabase(path: path)
        cache = MapTileCache(byteBudget: cacheBytes)
    }

    /// The tile `key` (empty when the map has nothing there), from the cache or the file.
    public func tile(_ key: TileKey) throws(MapFileError) -> MapTile {
        try indexedTile(key).tile
    }

    private func indexedTile(_ key: TileKey) throws(MapFileError) -> IndexedTile {
        if let cached = cache.tile(key) { return cached }
        let tile = try database.readTile(key)
        tileReads += 1
        let indexed = IndexedTile(tile)
        cache.insert(indexed, for: key)
        return indexed
    }

    /// Loads tiles within `radius` metres of `point` into the cache, nearest first, so that the
    /// fixes that follow find them there; at most `maximumReads` tiles are read per call, so that
    /// a call at every fix spreads the reads over several fixes instead of stalling one.
    ///
    /// The tiles still to read are worked out when the vehicle enters another tile or the radius
    /// changes; calls in between only continue that list, and cost nothing once it is done.
    public func prefetch(around point: GeoPoint, radius: Double, maximumReads: Int = 4) throws(MapFileError) {
        let centre = TileKey(containing: point)
        if lastPrefetch?.centre != centre || lastPrefetch?.radius != radius {
            lastPrefetch = (centre, radius)
            let middle = GeoPoint(
                latitude: centre.southWest.latitude + TileKey.sizeDegrees / 2,
                longitude: centre.southWest.longitude + TileKey.sizeDegrees / 2)
            func distance(_ key: TileKey) -> Double {
                middle.distance(
                    to: GeoPoint(
                        latitude: key.southWest.latitude + TileKey.sizeDegrees / 2,
                        longitude: key.southWest.longitude + TileKey.sizeDegrees / 2))
            }
            prefetchQueue = TileKey.covering(point, radius: radius).filter { !cache.contains($0) }
                .sorted { (distance($0), $0) < (distance($1), $1) }
            prefetchQueue.reverse()  // nearest last: taken from the end
        }
        var reads = 0
        while reads < maximumReads, let key = prefetchQueue.popLast() {
            guard !cache.contains(key) else { continue }
            _ = try indexedTile(key)
            reads += 1
        }
    }

    /// Every tile key stored in the file, sorted.
    public func tileKeys() throws(MapFileError) -> [TileKey] {
        try database.tileKeys()
    }

    public func link(_ id: LinkID) throws -> RoadLink {
        guard let key = id.tile else { throw MapFileError.unknownLink(id) }
        let index = Int(id.indexInTile)
        // The cached tile is read in place: copying the whole tile out of the cache to take one
        // link retained and released every array of the tile, at every call.
        // Matched in place rather than bound to a local first: each binding of the double optional
        // copied the whole link (every array and string of it retained, then released).
        switch cache.link(at: index, inTile: key) {
        case .some(.some(let cached)) where cached.id == id:
            return cached
        case .some:
            throw MapFileError.unknownLink(id)
        case .none:
            let links = try indexedTile(key).tile.links
            guard links.indices.contains(index), links[index].id == id else { throw MapFileError.unknownLink(id) }
            return links[index]
        }
    }

    /// What junction walks read of a link: its ends and the direction it may be driven.
    private struct LinkEnds {
        var id: LinkID
        var startNode: NodeID
        var endNode: NodeID
        var oneway: Oneway

        init(_ link: borrowing RoadLink) {
            id = link.id
            startNode = link.startNode
            endNode = link.endNode
            oneway = link.oneway
        }
    }

    /// The ends of link `id`, read in place when its tile is cached (``link(_:)`` copies the whole
    /// link: its geometry, profiles, features and names are retained and released again).
    private func ends(_ id: LinkID) throws -> LinkEnds {
        guard let key = id.tile else { throw MapFileError.unknownLink(id) }
        let found: LinkEnds?
        if let cached = cache.withLink(at: Int(id.indexInTile), inTile: key, { LinkEnds($0) }) {
            found = cached
        } else {
            found = LinkEnds(try link(id))
        }
        guard let found, found.id == id else { throw MapFileError.unknownLink(id) }
        return found
    }

    public func links(near point: GeoPoint, radius: Double) throws -> [RoadLink] {
        var result: [RoadLink] = []
        var seen = Set<LinkID>()
        let latitudeMargin = radius / 110_000 * 1.01
        let longitudeMargin = radius / (110_000 * max(0.01, cos(point.latitude * .pi / 180))) * 1.01
        for key in TileKey.covering(point, radius: radius) {
            let indexed = try indexedTile(key)
            let tile = indexed.tile
            // By index: binding each link of the tile copied all of it, near the point or not.
            for index in tile.links.indices
            where indexed.bounds[index].isNear(point, latitudeMargin: latitudeMargin, longitudeMargin: longitudeMargin)
            {
                guard seen.insert(tile.links[index].id).inserted,
                    tile.links[index].geometry.passes(within: radius, of: point)
                else { continue }
                result.append(tile.links[index])
            }
            // Links stored in other tiles that cross this one: only those whose box comes near.
            let passingBounds = try passingBounds(of: indexed, key: key)
            for (index, id) in tile.passingLinks.enumerated()
            where passingBounds[index].isNear(point, latitudeMargin: latitudeMargin, longitudeMargin: longitudeMargin)
                && seen.insert(id).inserted
            {
                let link = try link(id)
                if link.geometry.passes(within: radius, of: point) { result.append(link) }
            }
        }
        return result.sorted { $0.id < $1.id }
    }

    /// The links with a safety location of one of `types` within `radius` of `point`
    /// (``RoadNetwork``). Danger zones ask for them over the longest zone's length (4 km and more)
    /// around the vehicle: read through the tile cache, that area's thousands of links pushed the
    /// tiles the vehicle drives on out of it (the daemon on the 32 × 32 map: 122 MiB peak, the
    /// cache full), and read tile by tile past the cache, the first fix on that map took 105 ms.
    /// The map's index names the links holding one per tile they lie in or cross, with their
    /// types, and holds a copy of each (``SafetyLinkIndex``): no tile is read, and the cache is
    /// left as it was.
    public func linksWithSafetyLocations(near point: GeoPoint, radius: Double, of types: Set<RoadObjectType>) throws
        -> [RoadLink]
    {
        let mask = SafetyLinkIndex.mask(of: types)
        guard mask != 0 else { return [] }
        var result: [RoadLink] = []
        var seen = Set<LinkID>()
        let keys = TileKey.covering(point, radius: radius)
        var rowStart = keys.startIndex
        while rowStart < keys.endIndex {
            var rowEnd = rowStart
            while rowEnd + 1 < keys.endIndex, keys[rowEnd + 1].row == keys[rowStart].row { rowEnd += 1 }
            for id in try database.safetyLinks(inTiles: keys[rowStart], through: keys[rowEnd], types: mask)
            where seen.insert(id).inserted {
                let link = try safetyLink(id)
                guard link.holdsSafetyLocation(of: types), link.geometry.passes(within: radius, of: point)
                else { continue }
                result.append(link)
            }
            rowStart = rowEnd + 1
        }
        return result.sorted { $0.id < $1.id }
    }

    /// Link `id` from the map's safety-location index, kept once read.
    private func safetyLink(_ id: LinkID) throws(MapFileError) -> RoadLink {
        if let known = safetyLinks[id] { return known }
        let link = try database.safetyLink(id)
        if safetyLinks.count >= Self.safetyLinksKept { safetyLinks.removeAll(keepingCapacity: true) }
        safetyLinks[id] = link
        return link
    }

    /// How many links of the safety-location index are kept (65 536: every camera of a large
    /// country; forgotten beyond, and read again if driven to).
    private static let safetyLinksKept = 1 << 16

    /// The boxes of tile `key`'s passing links (`indexed` is the tile), worked out from the links
    /// the first time and kept with the cached tile: without them every radius query read and
    /// projected every link crossing the tiles it covers.
    private func passingBounds(of indexed: IndexedTile, key: TileKey) throws -> [LinkBounds] {
        if let known = indexed.passingBounds { return known }
        var bounds: [LinkBounds] = []
        bounds.reserveCapacity(indexed.tile.passingLinks.count)
        for id in indexed.tile.passingLinks { bounds.append(LinkBounds(try link(id).geometry)) }
        cache.setPassingBounds(bounds, ofTile: key)
        return bounds
    }

    public func outgoing(from node: NodeID) throws -> [DirectedLink] {
        guard let key = try tileKey(of: node) else { return [] }
        return try outgoing(from: node, inTile: key)
    }

    /// The links meeting at `node`, from its adjacency tile `key`, read in place when the tile is
    /// cached (copying the tile out of the cache retained and released every array of it).
    private func links(at node: NodeID, inTile key: TileKey) throws(MapFileError) -> [LinkID] {
        if let cached = cache.links(at: node, inTile: key) { return cached }
        return try indexedTile(key).tile.linksAtNode[node] ?? []
    }

    /// The directed links leaving `node`, whose adjacency tile `key` holds.
    private func outgoing(from node: NodeID, inTile key: TileKey) throws -> [DirectedLink] {
        try outgoing(from: node, links: links(at: node, inTile: key))
    }

    /// The directed links leaving `node` along `links` (the links meeting there).
    private func outgoing(from node: NodeID, links: [LinkID]) throws -> [DirectedLink] {
        // One allocation: room for both directions of every link (a loop starts and ends here),
        // sorted in place.
        var result: [DirectedLink] = []
        result.reserveCapacity(2 * links.count)
        for id in links {
            let link = try ends(id)
            if link.startNode == node, link.oneway.allows(.forward) { result.append(DirectedLink(id, .forward)) }
            if link.endNode == node, link.oneway.allows(.backward) { result.append(DirectedLink(id, .backward)) }
        }
        result.sort()
        return result
    }

    public func incoming(to node: NodeID) throws -> [DirectedLink] {
        guard let key = try tileKey(of: node) else { return [] }
        var result: [DirectedLink] = []
        for id in try tile(key).linksAtNode[node] ?? [] {
            let link = try link(id)
            if link.endNode == node, link.oneway.allows(.forward) { result.append(DirectedLink(id, .forward)) }
            if link.startNode == node, link.oneway.allows(.backward) { result.append(DirectedLink(id, .backward)) }
        }
        return result.sorted()
    }

    /// The legal successors of `directedLink` as the import worked them out (``RoadTurns``): one
    /// list read in place from the link's tile, which is read when it is not cached.
    public func successors(of directedLink: DirectedLink) throws -> [DirectedLink] {
        let id = directedLink.link
        guard let key = id.tile else { throw MapFileError.unknownLink(id) }
        let index = Int(id.indexInTile)
        let found: [DirectedLink]?
        if let cached = cache.successors(ofLinkAt: index, directedLink.direction, id: id, inTile: key) {
            found = cached
        } else {
            let tile = try indexedTile(key).tile
            found = MapTileCache.successors(in: tile, ofLinkAt: index, directedLink.direction, id: id)
        }
        guard let found else { throw MapFileError.unknownLink(id) }
        return found
    }

    /// The longest way on from the start of `directedLink`, as the import worked it out for the
    /// whole map (``LongestWaysOn``): exact up to ``LongestWaysOn/storedLimit``, `.infinity` past
    /// it or into a loop. Reads the link's tile when it is not cached.
    public func longestWayOn(_ directedLink: DirectedLink) throws -> Double? {
        guard let key = directedLink.link.tile else { throw MapFileError.unknownLink(directedLink.link) }
        if let cached = cache.longestWayOn(directedLink, inTile: key) { return cached }
        return try indexedTile(key).tile.longestWaysOn[directedLink] ?? .infinity
    }

    /// Turn restrictions at `node` (for inspection and export).
    public func restrictions(at node: NodeID) throws -> [TurnRestriction] {
        guard let key = try tileKey(of: node) else { return [] }
        return try tile(key).restrictions.filter { $0.via == node }
    }

    /// The tile holding `node`'s adjacency: from the cache's node index, else from the file.
    private func tileKey(of node: NodeID) throws(MapFileError) -> TileKey? {
        if let key = cache.tileKey(of: node) { return key }
        return try database.tileKey(of: node)
    }
}

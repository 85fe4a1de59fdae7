import Foundation
import GRDB

/// A map file opened for reading: the ``RoadNetwork`` the matcher and horizon engine use on a
/// head unit.
///
/// Tiles are read on demand and kept in an LRU cache with a byte budget; ``prefetch(around:radius:)``
/// loads the tiles around the vehicle ahead of need. Opening checks that the file is an adasis
/// map of a supported format; every tile is checked against its CRC when read.
/// Not thread-safe: use one instance per thread.
public final class MapFile: RoadNetwork {
    /// The file's path.
    public let path: String
    /// What the map says about itself.
    public let metadata: MapMetadata
    private let queue: DatabaseQueue
    private var cache: ByteBudgetCache<TileKey, IndexedTile>

    /// A decoded tile with the bounding box of each of its links, so radius queries project only
    /// the links whose box comes near the query point.
    private struct IndexedTile: Sendable {
        var tile: MapTile
        var bounds: [LinkBounds]
    }

    /// South, west, north, east of a link's geometry, degrees.
    private struct LinkBounds: Sendable {
        var south: Double, west: Double, north: Double, east: Double

        init(_ geometry: [GeoPoint]) {
            south = .infinity; west = .infinity; north = -.infinity; east = -.infinity
            for point in geometry {
                south = min(south, point.latitude); north = max(north, point.latitude)
                west = min(west, point.longitude); east = max(east, point.longitude)
            }
        }

        func isNear(_ point: GeoPoint, latitudeMargin: Double, longitudeMargin: Double) -> Bool {
            point.latitude >= south - latitudeMargin && point.latitude <= north + latitudeMargin
                && point.longitude >= west - longitudeMargin && point.longitude <= east + longitudeMargin
        }
    }
    private var nodeTiles: [NodeID: TileKey] = [:]
    /// Tiles read from disk since opening (cache misses).
    public private(set) var tileReads = 0

    /// Opens `path`; `cacheBytes` bounds the memory of decoded tiles (default 64 MiB).
    public init(path: String, cacheBytes: Int = 64 << 20) throws(MapFileError) {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            throw .cannotOpen(path: path, reason: "no such file")
        }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            throw .notAMap(path: path, reason: "not an SQLite database")
        } catch {
            throw .cannotOpen(path: path, reason: MapFile.sqliteMessage(error))
        }
        let rows: [String: String]
        do {
            rows = try queue.read { db in
                guard try db.tableExists("metadata"), try db.tableExists("tiles") else { return [:] }
                return Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, value FROM metadata")
                    .map { ($0["key"] as String, $0["value"] as String) })
            }
        } catch {
            throw .notAMap(path: path, reason: "not an SQLite database: \(MapFile.sqliteMessage(error))")
        }
        guard rows["format"] == MapMetadata.formatName, let versionText = rows["format_version"],
              let version = Int(versionText) else {
            throw .notAMap(path: path, reason: "no adasis map metadata")
        }
        guard version <= MapMetadata.currentFormatVersion else {
            throw .newerFormat(path: path, version: version, supported: MapMetadata.currentFormatVersion)
        }
        guard let json = rows["metadata"], let decoded = try? JSONDecoder().decode(MapMetadata.self, from: Data(json.utf8)) else {
            throw .notAMap(path: path, reason: "metadata unreadable")
        }
        metadata = decoded
        cache = ByteBudgetCache(byteBudget: cacheBytes)
    }

    /// The tile `key` (empty when the map has nothing there), from the cache or the file.
    public func tile(_ key: TileKey) throws(MapFileError) -> MapTile {
        try indexedTile(key).tile
    }

    private func indexedTile(_ key: TileKey) throws(MapFileError) -> IndexedTile {
        if let cached = cache.value(for: key) { return cached }
        let blob: Data?
        do {
            blob = try queue.read { db in
                try Data.fetchOne(db, sql: "SELECT blob FROM tiles WHERE key = ?", arguments: [Int64(key.packed)])
            }
        } catch {
            throw .readFailed(path: path, reason: MapFile.sqliteMessage(error))
        }
        tileReads += 1
        var tile = MapTile(links: [])
        if let blob {
            do {
                tile = try TileCodec.decode([UInt8](blob), tile: key)
            } catch {
                throw .damagedTile(path: path, error)
            }
        }
        for node in tile.linksAtNode.keys { nodeTiles[node] = key }
        let indexed = IndexedTile(tile: tile, bounds: tile.links.map { LinkBounds($0.geometry) })
        _ = cache.insert(indexed, for: key, cost: tile.estimatedByteCount + tile.links.count * 32)
        return indexed
    }

    /// Loads the tiles within `radius` metres of `point` into the cache.
    public func prefetch(around point: GeoPoint, radius: Double) throws(MapFileError) {
        for key in TileKey.covering(point, radius: radius) { _ = try tile(key) }
    }

    /// Every tile key stored in the file, sorted.
    public func tileKeys() throws(MapFileError) -> [TileKey] {
        do {
            return try queue.read { db in
                try Int64.fetchAll(db, sql: "SELECT key FROM tiles ORDER BY key").compactMap { TileKey(packed: UInt32(clamping: $0)) }
            }
        } catch {
            throw .readFailed(path: path, reason: MapFile.sqliteMessage(error))
        }
    }

    public func link(_ id: LinkID) throws -> RoadLink {
        guard let key = id.tile else { throw MapFileError.unknownLink(id) }
        let links = try tile(key).links
        let index = Int(id.indexInTile)
        guard index < links.count, links[index].id == id else { throw MapFileError.unknownLink(id) }
        return links[index]
    }

    public func links(near point: GeoPoint, radius: Double) throws -> [RoadLink] {
        var result: [RoadLink] = []
        var seen = Set<LinkID>()
        let latitudeMargin = radius / 110_000 * 1.01
        let longitudeMargin = radius / (110_000 * max(0.01, cos(point.latitude * .pi / 180))) * 1.01
        for key in TileKey.covering(point, radius: radius) {
            let indexed = try indexedTile(key)
            let tile = indexed.tile
            for (index, link) in tile.links.enumerated()
            where indexed.bounds[index].isNear(point, latitudeMargin: latitudeMargin, longitudeMargin: longitudeMargin) {
                guard seen.insert(link.id).inserted else { continue }
                if let projection = link.geometry.project(point), projection.distance <= radius { result.append(link) }
            }
            for id in tile.passingLinks where seen.insert(id).inserted {
                let link = try link(id)
                if let projection = link.geometry.project(point), projection.distance <= radius { result.append(link) }
            }
        }
        return result.sorted { $0.id < $1.id }
    }

    public func outgoing(from node: NodeID) throws -> [DirectedLink] {
        guard let key = try tileKey(of: node) else { return [] }
        var result: [DirectedLink] = []
        for id in try tile(key).linksAtNode[node] ?? [] {
            let link = try link(id)
            if link.startNode == node, link.oneway.allows(.forward) { result.append(DirectedLink(id, .forward)) }
            if link.endNode == node, link.oneway.allows(.backward) { result.append(DirectedLink(id, .backward)) }
        }
        return result.sorted()
    }

    public func successors(of directedLink: DirectedLink) throws -> [DirectedLink] {
        let link = try link(directedLink.link)
        let node = link.exitNode(directedLink.direction)
        let exitPoint = directedLink.direction == .forward ? link.geometry.last! : link.geometry.first!
        let key = TileKey(containing: exitPoint)
        nodeTiles[node] = key
        let candidates = try outgoing(from: node)
        let restrictions = try tile(key).restrictions.filter { $0.from == directedLink.link && $0.via == node }
        if restrictions.isEmpty { return candidates }
        let mandatory = restrictions.filter { $0.kind == .mandatory }.map(\.to)
        let forbidden = Set(restrictions.filter { $0.kind == .prohibitory }.map(\.to))
        return candidates.filter { candidate in
            mandatory.isEmpty ? !forbidden.contains(candidate.link) : mandatory.contains(candidate.link)
        }
    }

    /// Turn restrictions at `node` (for inspection and export).
    public func restrictions(at node: NodeID) throws -> [TurnRestriction] {
        guard let key = try tileKey(of: node) else { return [] }
        return try tile(key).restrictions.filter { $0.via == node }
    }

    private func tileKey(of node: NodeID) throws -> TileKey? {
        if let key = nodeTiles[node] { return key }
        let packed: Int64?
        do {
            packed = try queue.read { db in
                try Int64.fetchOne(db, sql: "SELECT tile FROM node_tiles WHERE node = ?", arguments: [node.rawValue])
            }
        } catch {
            throw MapFileError.readFailed(path: path, reason: MapFile.sqliteMessage(error))
        }
        guard let packed, let key = TileKey(packed: UInt32(clamping: packed)) else { return nil }
        nodeTiles[node] = key
        return key
    }

    static func sqliteMessage(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}

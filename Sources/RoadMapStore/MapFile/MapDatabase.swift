import Foundation
import GRDB
import RoadMap

/// The SQLite side of a map file opened for reading: checks the container on opening, then reads
/// tiles and node locations straight from the file, uncached (``MapFile`` caches).
final class MapDatabase {
    /// The file's path.
    let path: String
    /// What the map says about itself.
    let metadata: MapMetadata
    private let queue: DatabaseQueue

    /// Opens `path` read-only and checks that it is an adasis map of a supported format.
    init(path: String) throws(MapFileError) {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            throw .cannotOpen(path: path, reason: "no such file")
        }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
        {
            throw .notAMap(path: path, reason: "not an SQLite database")
        } catch {
            throw .cannotOpen(path: path, reason: MapDatabase.sqliteMessage(error))
        }
        let rows: [String: String]
        do {
            rows = try queue.read { db in
                guard try db.tableExists("metadata"), try db.tableExists("tiles") else { return [:] }
                return Dictionary(
                    uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, value FROM metadata")
                        .map { ($0["key"] as String, $0["value"] as String) })
            }
        } catch {
            throw .notAMap(path: path, reason: "not an SQLite database: \(MapDatabase.sqliteMessage(error))")
        }
        guard rows["format"] == MapMetadata.formatName, let versionText = rows["format_version"],
            let version = Int(versionText)
        else {
            throw .notAMap(path: path, reason: "no adasis map metadata")
        }
        guard version <= MapMetadata.currentFormatVersion else {
            throw .newerFormat(path: path, version: version, supported: MapMetadata.currentFormatVersion)
        }
        guard version == MapMetadata.currentFormatVersion else {
            throw .olderFormat(path: path, version: version, supported: MapMetadata.currentFormatVersion)
        }
        let indexed: Bool
        do {
            indexed = try queue.read {
                try $0.tableExists("safety_links") && $0.tableExists("safety_link_records")
            }
        } catch {
            throw .readFailed(path: path, reason: MapDatabase.sqliteMessage(error))
        }
        guard indexed else {
            throw .notAMap(path: path, reason: "no safety-location index (a damaged map: import it again)")
        }
        guard let json = rows["metadata"],
            let decoded = try? JSONDecoder().decode(MapMetadata.self, from: Data(json.utf8))
        else {
            throw .notAMap(path: path, reason: "metadata unreadable")
        }
        metadata = decoded
    }

    /// The tile `key` read and checked (empty when the map has nothing there).
    func readTile(_ key: TileKey) throws(MapFileError) -> MapTile {
        let blob: Data?
        do {
            blob = try queue.read { db in
                try Data.fetchOne(db, sql: "SELECT blob FROM tiles WHERE key = ?", arguments: [Int64(key.packed)])
            }
        } catch {
            throw .readFailed(path: path, reason: MapDatabase.sqliteMessage(error))
        }
        guard let blob else { return MapTile(links: []) }
        do {
            return try TileCodec.decode([UInt8](blob), tile: key)
        } catch {
            throw .damagedTile(path: path, error)
        }
    }

    /// The tile holding `node`'s adjacency, `nil` when the map has no such node.
    func tileKey(of node: NodeID) throws(MapFileError) -> TileKey? {
        let packed: Int64?
        do {
            packed = try queue.read { db in
                try Int64.fetchOne(db, sql: "SELECT tile FROM node_tiles WHERE node = ?", arguments: [node.rawValue])
            }
        } catch {
            throw .readFailed(path: path, reason: MapDatabase.sqliteMessage(error))
        }
        guard let packed else { return nil }
        return TileKey(packed: UInt32(clamping: packed))
    }

    /// The links holding a safety location of one of the types `mask` (``SafetyLinkIndex``) that
    /// lie in or cross the tiles `first` through `last` of one tile row (packed keys are
    /// consecutive along a row); a link crossing several of them is named once for each.
    func safetyLinks(inTiles first: TileKey, through last: TileKey, types mask: Int64) throws(MapFileError)
        -> [LinkID]
    {
        do {
            return try queue.read { db in
                try Int64.fetchAll(
                    db,
                    sql:
                        "SELECT link FROM safety_links WHERE tile BETWEEN ? AND ? AND types & ? != 0 ORDER BY tile, link",
                    arguments: [Int64(first.packed), Int64(last.packed), mask]
                ).map { LinkID(UInt64(bitPattern: $0)) }
            }
        } catch {
            throw .readFailed(path: path, reason: MapDatabase.sqliteMessage(error))
        }
    }

    /// The safety-location index's copy of link `id` (``SafetyLinkIndex``), which `safety_links`
    /// named: a copy missing or damaged is ``MapFileError/damagedSafetyLink(path:link:_:)``.
    func safetyLink(_ id: LinkID) throws(MapFileError) -> RoadLink {
        let blob: Data?
        do {
            blob = try queue.read { db in
                try Data.fetchOne(
                    db, sql: "SELECT blob FROM safety_link_records WHERE link = ?",
                    arguments: [Int64(bitPattern: id.rawValue)])
            }
        } catch {
            throw .readFailed(path: path, reason: MapDatabase.sqliteMessage(error))
        }
        guard let blob, let tile = id.tile else { throw .damagedSafetyLink(path: path, link: id, nil) }
        do {
            return try SafetyLinkIndex.link(fromRecord: [UInt8](blob), link: id, tile: tile)
        } catch {
            throw .damagedSafetyLink(path: path, link: id, error)
        }
    }

    /// Every tile key stored in the file, sorted.
    func tileKeys() throws(MapFileError) -> [TileKey] {
        do {
            return try queue.read { db in
                try Int64.fetchAll(db, sql: "SELECT key FROM tiles ORDER BY key").compactMap {
                    TileKey(packed: UInt32(clamping: $0))
                }
            }
        } catch {
            throw .readFailed(path: path, reason: MapDatabase.sqliteMessage(error))
        }
    }

    /// SQLite's own message for `error`.
    static func sqliteMessage(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}

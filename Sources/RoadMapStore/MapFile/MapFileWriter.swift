import Foundation
import GRDB
import RoadMap

/// Writes a road graph into a map file: SQLite with a `metadata` table, a `tiles` table of BLOBs,
/// the junction nodes' tiles and the index of the links holding a safety location (see
/// Docs/map-format.md).
///
/// The file is written under a temporary name next to the destination and renamed into place
/// only when complete, so a failed or interrupted import never leaves a partial map.
public enum MapFileWriter {
    /// Writes `graph` with `metadata` to `path`, replacing any existing file atomically.
    public static func write(_ graph: RoadGraph, metadata: MapMetadata, to path: String) throws(MapFileError) {
        do throws(AtomicFileError) {
            try AtomicFile.replace(path) { temporary in
                let tiles = MapTileAssembly.tiles(of: graph)
                let queue = try DatabaseQueue(path: temporary)
                try queue.write { db in
                    try db.execute(sql: "PRAGMA page_size = 4096")
                    try db.execute(
                        sql: """
                            CREATE TABLE metadata(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                            CREATE TABLE tiles(key INTEGER PRIMARY KEY NOT NULL, blob BLOB NOT NULL);
                            CREATE TABLE node_tiles(node INTEGER PRIMARY KEY NOT NULL, tile INTEGER NOT NULL);
                            CREATE TABLE safety_links(
                                tile INTEGER NOT NULL, link INTEGER NOT NULL, types INTEGER NOT NULL,
                                PRIMARY KEY (tile, link)) WITHOUT ROWID;
                            CREATE TABLE safety_link_records(link INTEGER PRIMARY KEY NOT NULL, blob BLOB NOT NULL);
                            """)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys]
                    let json = String(decoding: try encoder.encode(metadata), as: UTF8.self)
                    for (key, value) in [
                        ("format", MapMetadata.formatName), ("format_version", String(metadata.formatVersion)),
                        ("metadata", json),
                    ] {
                        try db.execute(sql: "INSERT INTO metadata(key, value) VALUES (?, ?)", arguments: [key, value])
                    }
                    for (key, tile) in tiles.sorted(by: { $0.key < $1.key }) {
                        try db.execute(
                            sql: "INSERT INTO tiles(key, blob) VALUES (?, ?)",
                            arguments: [Int64(key.packed), Data(TileCodec.encode(tile))])
                        for node in tile.linksAtNode.keys.sorted() {
                            try db.execute(
                                sql: "INSERT OR REPLACE INTO node_tiles(node, tile) VALUES (?, ?)",
                                arguments: [node.rawValue, Int64(key.packed)])
                        }
                    }
                    let safetyLinks = SafetyLinkIndex(tiles: tiles)
                    for row in safetyLinks.rows {
                        try db.execute(
                            sql: "INSERT INTO safety_links(tile, link, types) VALUES (?, ?, ?)",
                            arguments: [Int64(row.tile.packed), Int64(bitPattern: row.link.rawValue), row.types])
                    }
                    for record in safetyLinks.records {
                        try db.execute(
                            sql: "INSERT INTO safety_link_records(link, blob) VALUES (?, ?)",
                            arguments: [Int64(bitPattern: record.link.rawValue), Data(record.blob)])
                    }
                }
                try queue.close()
            }
        } catch {
            throw .writeFailed(path: path, reason: error.reason)
        }
    }
}

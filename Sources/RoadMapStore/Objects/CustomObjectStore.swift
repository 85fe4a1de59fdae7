import Foundation
import GRDB
import RoadMap

/// Why the custom-object store refused a change or could not be read. A refused change leaves the
/// store exactly as it was.
public enum CustomObjectStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An object with this id is stored already.
    case duplicateID(String)
    /// No object with this id is stored.
    case unknownID(String)
    /// The file is not a custom-object store (or is damaged).
    case notAStore(path: String, reason: String)
    /// SQLite failed.
    case database(path: String, reason: String)

    public var description: String {
        switch self {
        case .duplicateID(let id):
            return "an object with id '\(id)' is stored already; remove it first or choose another id"
        case .unknownID(let id): return "no object with id '\(id)' is stored (adasis objects list shows them)"
        case .notAStore(let path, let reason): return "\(path) is not an adasis object store: \(reason)"
        case .database(let path, let reason): return "\(path): \(reason)"
        }
    }
}

/// A stored custom object: the store's number for it, the object and where it was matched.
public struct StoredCustomObject: Hashable, Sendable {
    /// The store's number (unique, never reused within the file).
    public var number: Int64
    /// The object as the client gave it.
    public var object: CustomObject
    /// Where it lies on the map, by link.
    public var pieces: [CustomObjectPiece]
}

/// The custom objects of a map, in an SQLite file beside it (`<map>.objects`, mode 0600). Each
/// change is one transaction: it happens whole or not at all, and a refused change (duplicate or
/// unknown id) leaves the file as it was. Objects survive restarts; readers see them on opening.
public final class CustomObjectStore {
    /// The store's path for the map at `mapPath`.
    public static func path(forMap mapPath: String) -> String { mapPath + ".objects" }

    /// The file.
    public let path: String
    private let queue: DatabaseQueue

    /// Opens the store at `path`; with `create`, makes an empty one (mode 0600) when there is none.
    public init(path: String, create: Bool) throws(CustomObjectStoreError) {
        self.path = path
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists {
            guard create else { throw .notAStore(path: path, reason: "no such file") }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw .database(path: path, reason: "cannot create: \(String(cString: strerror(errno)))")
            }
            close(descriptor)
        }
        do {
            queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS store(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                        INSERT OR IGNORE INTO store(key, value) VALUES ('format', 'adasis-objects');
                        CREATE TABLE IF NOT EXISTS objects(
                            number INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
                            object TEXT NOT NULL, pieces TEXT NOT NULL);
                        """)
                let format = try String.fetchOne(db, sql: "SELECT value FROM store WHERE key = 'format'")
                guard format == "adasis-objects" else { throw CustomObjectStoreError.notAStore(path: path, reason: "") }
            }
        } catch let error as CustomObjectStoreError {
            throw error
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
        {
            throw .notAStore(path: path, reason: "not an SQLite database")
        } catch {
            throw .database(path: path, reason: "\(error)")
        }
    }

    /// Stores `object` matched to `pieces`; returns its number.
    /// - Throws: ``CustomObjectStoreError/duplicateID(_:)`` when the id is taken (nothing changes).
    @discardableResult
    public func add(_ object: CustomObject, pieces: [CustomObjectPiece]) throws(CustomObjectStoreError) -> Int64 {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try write { db in
            if try Int.fetchOne(db, sql: "SELECT 1 FROM objects WHERE id = ?", arguments: [object.id]) != nil {
                throw CustomObjectStoreError.duplicateID(object.id)
            }
            try db.execute(
                sql: "INSERT INTO objects(id, object, pieces) VALUES (?, ?, ?)",
                arguments: [
                    object.id, String(decoding: try encoder.encode(object), as: UTF8.self),
                    String(decoding: try encoder.encode(pieces), as: UTF8.self),
                ])
            return db.lastInsertedRowID
        }
    }

    /// Removes the object `id`.
    /// - Throws: ``CustomObjectStoreError/unknownID(_:)`` when there is none (nothing changes).
    public func remove(id: String) throws(CustomObjectStoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM objects WHERE id = ?", arguments: [id])
            if db.changesCount == 0 { throw CustomObjectStoreError.unknownID(id) }
        }
    }

    /// Removes every object; returns how many there were.
    @discardableResult
    public func removeAll() throws(CustomObjectStoreError) -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM objects")
            return db.changesCount
        }
    }

    /// Every stored object, by number.
    public func objects() throws(CustomObjectStoreError) -> [StoredCustomObject] {
        do {
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT number, object, pieces FROM objects ORDER BY number").map { row in
                    let decoder = JSONDecoder()
                    return StoredCustomObject(
                        number: row["number"],
                        object: try decoder.decode(CustomObject.self, from: Data((row["object"] as String).utf8)),
                        pieces: try decoder.decode(
                            [CustomObjectPiece].self, from: Data((row["pieces"] as String).utf8)))
                }
            }
        } catch {
            throw .notAStore(path: path, reason: "an object cannot be read: \(error)")
        }
    }

    private func write<T>(_ body: (Database) throws -> T) throws(CustomObjectStoreError) -> T {
        do {
            return try queue.write(body)
        } catch let error as CustomObjectStoreError {
            throw error
        } catch {
            throw .database(path: path, reason: "\(error)")
        }
    }
}

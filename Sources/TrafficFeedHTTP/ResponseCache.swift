import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Why the cache directory could not be opened.
public enum ResponseCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The directory could not be created or read; the system's words.
    case directoryUnusable(path: String, reason: String)

    public var description: String {
        switch self {
        case .directoryUnusable(let path, let reason):
            return "cache directory \(path) cannot be used: \(reason) (give a writable directory with --cache)"
        }
    }
}

/// Counts of what the cache did and what it found wrong, since it was opened.
public struct ResponseCacheStatistics: Hashable, Sendable {
    /// Entries served (fresh or for revalidation).
    public var hits = 0
    /// Lookups that found nothing usable.
    public var misses = 0
    /// Entries written.
    public var stores = 0
    /// Entries removed to keep within the byte budget.
    public var evictions = 0
    /// Files that failed validation (cut short, altered) and were deleted, never served.
    public var corruptEntriesRemoved = 0
    /// Half-written temporary files (a writer that died) deleted on open.
    public var temporaryFilesRemoved = 0
    /// Writes that failed (disk full, permissions); the response is still used, just not kept.
    public var writeFailures = 0
}

/// A disk cache of HTTP responses with a byte budget and least-recently-used eviction.
///
/// Layout: `DIR/entries/<hash>.entry` (one file per URL, ``CacheEntryFile``) and `DIR/tmp/`.
/// Every write goes to a new file in `tmp/` (mode 0600), is flushed with `fsync`, and is renamed
/// over the entry, so a reader sees the old or the new entry, never a torn one. The index (sizes
/// and use order) lives in memory and is rebuilt on open from the files, which are validated one by
/// one; `tmp/` is emptied. The use order is kept in the files' modification times, set to the time
/// passed in on each use. Several processes may share a directory: entries stay whole, the budget
/// is kept by each process for what it sees.
public final class ResponseCache: Sendable {
    /// The default byte budget: 50 MB, as TomTom's SDK keeps for tiles.
    public static let defaultByteBudget = 50_000_000

    /// The cache directory.
    public let directory: URL
    /// The most bytes the entry files may take together.
    public let byteBudget: Int

    private struct IndexEntry {
        var size: Int
        var lastUsed: Date
    }
    private struct State {
        var index: [String: IndexEntry] = [:]
        var statistics = ResponseCacheStatistics()
        var sequence = 0
    }
    private let state = Mutex(State())

    /// Opens (creating it if needed, mode 0700) the cache in `directory`, deleting leftovers of
    /// interrupted writes and entries that fail validation.
    public init(directory: URL, byteBudget: Int = ResponseCache.defaultByteBudget) throws(ResponseCacheError) {
        self.directory = directory
        self.byteBudget = byteBudget
        let files = FileManager.default
        do {
            for sub in ["entries", "tmp"] {
                try files.createDirectory(
                    at: directory.appendingPathComponent(sub), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            var statistics = ResponseCacheStatistics()
            for name in try files.contentsOfDirectory(atPath: temporaryDirectory.path) {
                try files.removeItem(at: temporaryDirectory.appendingPathComponent(name))
                statistics.temporaryFilesRemoved += 1
            }
            var index: [String: IndexEntry] = [:]
            for name in try files.contentsOfDirectory(atPath: entriesDirectory.path) {
                let url = entriesDirectory.appendingPathComponent(name)
                guard name.hasSuffix(".entry"), let data = try? Data(contentsOf: url),
                    let entry = try? CacheEntryFile.decode(data), CacheEntryFile.fileName(for: entry.url) == name
                else {
                    try files.removeItem(at: url)
                    statistics.corruptEntriesRemoved += 1
                    continue
                }
                let modified = (try? files.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? nil
                index[name] = IndexEntry(size: data.count, lastUsed: modified ?? entry.storedAt)
            }
            state.withLock {
                $0.index = index
                $0.statistics = statistics
            }
        } catch {
            throw .directoryUnusable(path: directory.path, reason: "\(error.localizedDescription)")
        }
        state.withLock { evict(&$0, keeping: nil) }
    }

    private var entriesDirectory: URL { directory.appendingPathComponent("entries") }
    private var temporaryDirectory: URL { directory.appendingPathComponent("tmp") }

    /// What the cache did since it was opened.
    public var statistics: ResponseCacheStatistics { state.withLock { $0.statistics } }

    /// Bytes the entry files take together.
    public var storedBytes: Int { state.withLock { $0.index.values.reduce(0) { $0 + $1.size } } }

    /// The stored response for `url`, validated again before it is returned (a file altered since
    /// open is deleted, not served); marks it used at `now`.
    public func entry(for url: String, now: Date) -> CachedEntry? {
        let name = CacheEntryFile.fileName(for: url)
        let path = entriesDirectory.appendingPathComponent(name)
        return state.withLock { state -> CachedEntry? in
            guard state.index[name] != nil, let data = try? Data(contentsOf: path) else {
                state.statistics.misses += 1
                return nil
            }
            guard let entry = try? CacheEntryFile.decode(data) else {
                try? FileManager.default.removeItem(at: path)
                state.index[name] = nil
                state.statistics.corruptEntriesRemoved += 1
                state.statistics.misses += 1
                return nil
            }
            guard entry.url == url else {
                state.statistics.misses += 1
                return nil
            }
            state.index[name]?.lastUsed = now
            try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: path.path)
            state.statistics.hits += 1
            return entry
        }
    }

    /// Writes `entry` (replacing the URL's previous one), then evicts the least recently used
    /// entries beyond the budget. An entry larger than the whole budget is not kept. A failed write
    /// is counted and leaves the previous entry in place.
    public func store(_ entry: CachedEntry) {
        let name = CacheEntryFile.fileName(for: entry.url)
        let data = CacheEntryFile.encode(entry)
        state.withLock { state in
            guard data.count <= byteBudget else {
                removeLocked(&state, name: name)
                return
            }
            state.sequence += 1
            let temporary = temporaryDirectory.appendingPathComponent("\(name).\(getpid()).\(state.sequence)")
            do {
                try Self.writeDurably(data, to: temporary.path)
                guard rename(temporary.path, entriesDirectory.appendingPathComponent(name).path) == 0 else {
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                Self.syncDirectory(entriesDirectory.path)
            } catch {
                unlink(temporary.path)
                state.statistics.writeFailures += 1
                return
            }
            try? FileManager.default.setAttributes(
                [.modificationDate: entry.storedAt], ofItemAtPath: entriesDirectory.appendingPathComponent(name).path)
            state.index[name] = IndexEntry(size: data.count, lastUsed: entry.storedAt)
            state.statistics.stores += 1
            evict(&state, keeping: name)
        }
    }

    /// Deletes the URL's entry (a `no-store` answer).
    public func remove(url: String) {
        state.withLock { removeLocked(&$0, name: CacheEntryFile.fileName(for: url)) }
    }

    private func removeLocked(_ state: inout State, name: String) {
        guard state.index.removeValue(forKey: name) != nil else { return }
        unlink(entriesDirectory.appendingPathComponent(name).path)
    }

    private func evict(_ state: inout State, keeping kept: String?) {
        var total = state.index.values.reduce(0) { $0 + $1.size }
        guard total > byteBudget else { return }
        let order = state.index.sorted { ($0.value.lastUsed, $0.key) < ($1.value.lastUsed, $1.key) }
        for (name, entry) in order where total > byteBudget && name != kept {
            unlink(entriesDirectory.appendingPathComponent(name).path)
            state.index[name] = nil
            total -= entry.size
            state.statistics.evictions += 1
        }
    }

    /// Writes `data` to a new file at `path` (mode 0600, `O_EXCL`) and flushes it to the disk.
    private static func writeDurably(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Flushes a directory's entries (the rename) to the disk; a failure only weakens durability.
    private static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}

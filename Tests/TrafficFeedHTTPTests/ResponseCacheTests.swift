import Foundation
import TestSupport
import Testing

@testable import TrafficFeedHTTP

@Suite struct ResponseCacheTests {
    func entry(_ url: String, bytes: Int, at time: Date, seed: UInt64 = 1) -> CachedEntry {
        var body = Data(repeating: UInt8(truncatingIfNeeded: seed), count: bytes)
        body.replaceSubrange(0..<8, with: withUnsafeBytes(of: seed) { Data($0) })
        return CachedEntry(
            url: url, eTag: "\"\(seed)\"", lastModified: nil, storedAt: time, freshnessLifetime: 30, body: body)
    }

    func entryFiles(_ cache: ResponseCache) throws -> [String: Int] {
        let directory = cache.directory.appendingPathComponent("entries")
        var sizes: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(name).path)
            sizes[name] = (attributes[.size] as? Int) ?? 0
        }
        return sizes
    }

    /// 1500 writes of 1–120 kB over 150 URLs into a 1 MB budget, with reads in between: the files
    /// on disk never pass the budget, the most recently used entries survive, and a reopened cache
    /// sees the same entries.
    @Test func aLongRunStaysWithinItsBudgetAndEvictsTheLeastRecentlyUsed() throws {
        let budget = 1_000_000
        let cache = try temporaryCache(budget: budget)
        var random = SplitMix64(seed: 2026)
        var time = noon
        var lastUse: [String: Date] = [:]
        for step in 0..<1500 {
            time = time.addingTimeInterval(1)
            let url = "http://127.0.0.1/tile/\(random.below(150))"
            if random.below(3) == 0 {
                if cache.entry(for: url, now: time) != nil { lastUse[url] = time }
            } else {
                cache.store(entry(url, bytes: 1000 + random.below(120_000), at: time, seed: UInt64(step)))
                lastUse[url] = time
            }
            let onDisk = try entryFiles(cache).values.reduce(0, +)
            #expect(onDisk <= budget && onDisk == cache.storedBytes, "after step \(step)")
        }
        let statistics = cache.statistics
        #expect(statistics.evictions > 500 && statistics.writeFailures == 0 && statistics.corruptEntriesRemoved == 0)
        // The kept entries are the most recently used ones: every URL used after the oldest kept one is kept.
        let kept = Set(lastUse.keys.filter { cache.entry(for: $0, now: time) != nil })
        let oldestKept = kept.compactMap { lastUse[$0] }.min()!
        #expect(lastUse.filter { $0.value > oldestKept }.keys.allSatisfy(kept.contains))

        let reopened = try ResponseCache(directory: cache.directory, byteBudget: budget)
        #expect(reopened.storedBytes == cache.storedBytes)
        #expect(kept.allSatisfy { reopened.entry(for: $0, now: time) != nil })
    }

    @Test func aSmallerBudgetOnOpenEvictsTheOldest() throws {
        let cache = try temporaryCache()
        for index in 0..<5 {
            cache.store(entry("http://h/\(index)", bytes: 10_000, at: noon.addingTimeInterval(Double(index))))
        }
        let smaller = try ResponseCache(directory: cache.directory, byteBudget: 25_000)
        #expect(
            smaller.entry(for: "http://h/4", now: noon) != nil && smaller.entry(for: "http://h/3", now: noon) != nil)
        #expect(smaller.entry(for: "http://h/2", now: noon) == nil && smaller.storedBytes <= 25_000)
    }

    @Test func tornAndAlteredFilesAreNeverServed() throws {
        let cache = try temporaryCache()
        let good = entry("http://h/good", bytes: 5000, at: noon)
        cache.store(good)
        cache.store(entry("http://h/torn", bytes: 5000, at: noon))
        cache.store(entry("http://h/flipped", bytes: 5000, at: noon))
        let entries = cache.directory.appendingPathComponent("entries")
        let torn = entries.appendingPathComponent(CacheEntryFile.fileName(for: "http://h/torn"))
        let flipped = entries.appendingPathComponent(CacheEntryFile.fileName(for: "http://h/flipped"))
        try Data(try Data(contentsOf: torn).prefix(3000)).write(to: torn)
        var bytes = try Data(contentsOf: flipped)
        bytes[bytes.count - 10] ^= 0x40
        try bytes.write(to: flipped)
        try Data("half a write".utf8).write(to: cache.directory.appendingPathComponent("tmp/x.entry.99.1"))

        // Altered after open: found on the read, deleted.
        #expect(cache.entry(for: "http://h/flipped", now: noon) == nil)
        #expect(cache.statistics.corruptEntriesRemoved == 1)
        // On open: the torn file is deleted, the temporary file too, the good entry stays.
        let reopened = try ResponseCache(directory: cache.directory)
        #expect(reopened.statistics.corruptEntriesRemoved == 1 && reopened.statistics.temporaryFilesRemoved == 1)
        #expect(reopened.entry(for: "http://h/torn", now: noon) == nil)
        #expect(reopened.entry(for: "http://h/good", now: noon) == good)
        #expect(try entryFiles(reopened).keys.sorted() == [CacheEntryFile.fileName(for: "http://h/good")])
    }

    @Test func filesAreReadableByTheOwnerOnly() throws {
        let cache = try temporaryCache()
        cache.store(entry("http://h/a", bytes: 100, at: noon))
        let file = cache.directory.appendingPathComponent("entries/" + CacheEntryFile.fileName(for: "http://h/a"))
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        let directoryMode =
            try FileManager.default.attributesOfItem(
                atPath: cache.directory.appendingPathComponent("entries").path)[.posixPermissions] as? Int
        #expect(mode == 0o600 && directoryMode == 0o700)
    }

    @Test func anUnusableDirectoryIsAClearError() throws {
        let file = ScratchDirectory.url("not-a-dir")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: ResponseCacheError.self) { try ResponseCache(directory: file) }
    }
}

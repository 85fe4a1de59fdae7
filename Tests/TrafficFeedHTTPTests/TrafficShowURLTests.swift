import Foundation
import TestSupport
import Testing

@testable import TrafficFeedHTTP

/// `adasis traffic show --map M URL --cache DIR`, run as a process, and a writer killed mid-write.
@Suite(.serialized) struct TrafficShowURLTests {
    static let map = Result { try ImportedMap.file("Data/helsinki.osm.pbf") }
    static let adasis = Repository.url(".build/debug/adasis")

    func show(_ url: URL, cache: URL, at time: String = "2026-11-25T12:00:30Z") throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(
            Self.adasis,
            ["traffic", "show", "--map", try Self.map.get(), url.absoluteString, "--cache", cache.path, "--at", time])
    }

    func newDirectory() -> URL {
        ScratchDirectory.url("show-url-\(UUID().uuidString.prefix(8))")
    }

    @Test func printsTheModelIDFreshnessAndWhatWasDecoded() async throws {
        let server = try FeedServer(responses: Repository.url("Data/traffic"))
        try await server.script(
            "/feed",
            .init(headers: ["ETag": "\"s\"", "Cache-Control": "max-age=0"], file: "sample-feed.json", etagAware: true),
            .init(headers: ["ETag": "\"s\"", "Cache-Control": "max-age=0"], file: "sample-feed.json", etagAware: true),
            .init(status: 503))
        let cache = newDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let first = try show(server.url("/feed"), cache: cache, at: "2026-11-25T12:01:00Z")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.hasPrefix("traffic model 1764072000: fresh, from the server, received 2026-11-25T12:01:00Z\n"))
        #expect(first.stdout.contains("records: 7, matched 3, not matched 4"))
        #expect(first.stdout.contains("flowSegments[3]: invalid OpenLR"))
        let second = try show(server.url("/feed"), cache: cache, at: "2026-11-25T12:01:30Z")
        #expect(second.stdout.contains("fresh, from the cache (the server answered 304 Not Modified)"))
        let offline = try show(server.url("/feed"), cache: cache, at: "2026-11-25T12:02:00Z")
        #expect(offline.stdout.hasPrefix("traffic model 1764072000: stale (HTTP 503), from the cache"))
        #expect(offline.stdout.contains("records: 7, matched 3, not matched 4"))
        let expired = try show(server.url("/feed"), cache: cache, at: "2026-11-25T12:06:00Z")
        #expect(expired.status != 0)
        #expect(expired.stderr.contains("the cached copy was refused: the feed expired at 2026-11-25T12:05:00Z"))
        let noCacheFile = try runProcess(
            Self.adasis,
            ["traffic", "show", "--map", try Self.map.get(), "Data/traffic/sample-feed.json", "--cache", "x"])
        #expect(noCacheFile.status != 0 && noCacheFile.stderr.contains("--cache and --model-id-url need a feed URL"))
    }

    /// A writer killed while it writes a 12 MB answer into the cache leaves a half-written temporary
    /// file; the cache deletes it on open and still serves the entry it had, whole.
    @Test func aWriterKilledMidWriteLeavesTheCacheUsable() async throws {
        let responses = newDirectory()
        try FileManager.default.createDirectory(at: responses, withIntermediateDirectories: true)
        let cache = newDirectory()
        defer { for directory in [responses, cache] { try? FileManager.default.removeItem(at: directory) } }
        let small = try Data(contentsOf: Repository.url("Tests/TrafficFeedHTTPTests/Responses/feed-model-1.json"))
        try small.write(to: responses.appendingPathComponent("small.json"))
        var large = try Data(contentsOf: Repository.url("Tests/TrafficFeedHTTPTests/Responses/feed-model-2.json"))
        large.removeLast(2)  // "}\n"
        large.append(
            Data(",\"padding\":\"".utf8) + Data(repeating: UInt8(ascii: "x"), count: 12_000_000) + Data("\"}".utf8))
        try large.write(to: responses.appendingPathComponent("large.json"))
        let server = try FeedServer(responses: responses)
        try await server.script("/feed", .init(headers: ["Cache-Control": "max-age=0"], file: "small.json"))
        #expect(try show(server.url("/feed"), cache: cache).status == 0)
        try await server.script("/feed", .init(headers: ["Cache-Control": "max-age=0"], file: "large.json"))

        var killedMidWrite = 0
        for _ in 0..<10 where killedMidWrite < 3 {
            let writer = Process()
            writer.executableURL = Self.adasis
            writer.arguments = [
                "traffic", "show", "--map", try Self.map.get(), server.url("/feed").absoluteString, "--cache",
                cache.path,
                "--at", "2026-11-25T12:01:30Z",
            ]
            writer.standardOutput = FileHandle.nullDevice
            try writer.run()
            let temporary = cache.appendingPathComponent("tmp")
            let deadline = Date().addingTimeInterval(60)
            while writer.isRunning && Date() < deadline {
                if let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path), !names.isEmpty {
                    kill(writer.processIdentifier, SIGKILL)
                    killedMidWrite += 1
                    break
                }
                usleep(200)
            }
            writer.waitUntilExit()
            if writer.terminationReason == .uncaughtSignal {
                // Killed before the rename: the old entry and a temporary file; just after it (the
                // kill raced the rename): the new entry. Never a torn one.
                let reopened = try ResponseCache(directory: cache)
                #expect(reopened.statistics.corruptEntriesRemoved == 0)
                let kept = try #require(reopened.entry(for: server.url("/feed").absoluteString, now: Date()))
                #expect(kept.body == small || kept.body == large)
                if kept.body == small { #expect(reopened.statistics.temporaryFilesRemoved == 1) }
            } else {
                // The write finished before it was seen: put the small entry back for the next round.
                try await server.script("/feed", .init(headers: ["Cache-Control": "max-age=0"], file: "small.json"))
                #expect(try show(server.url("/feed"), cache: cache).status == 0)
                try await server.script("/feed", .init(headers: ["Cache-Control": "max-age=0"], file: "large.json"))
            }
        }
        #expect(killedMidWrite > 0, "no write was caught in the act")
        // After the crashes the cache takes the large answer whole.
        let after = try show(server.url("/feed"), cache: cache, at: "2026-11-25T12:01:30Z")
        #expect(after.status == 0 && after.stdout.hasPrefix("traffic model 1764072060: fresh, from the server"))
        let stored = try #require(
            try ResponseCache(directory: cache).entry(for: server.url("/feed").absoluteString, now: Date()))
        #expect(stored.body == large)
    }
}

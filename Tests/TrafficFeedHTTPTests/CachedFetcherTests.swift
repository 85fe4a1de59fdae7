import Foundation
import Testing
import Traffic
import TestSupport

@testable import TrafficFeedHTTP

/// A fresh cache directory of its own for one test (a few kB to 1 MB, left in the ``ScratchDirectory``).
func temporaryCache(budget: Int = ResponseCache.defaultByteBudget) throws -> ResponseCache {
    let directory = ScratchDirectory.url("http-cache-\(UUID().uuidString.prefix(8))")
    return try ResponseCache(directory: directory, byteBudget: budget)
}

/// 12:00:30 on the day of the recorded feeds.
let noon = ISO8601DateFormatter().date(from: "2026-11-25T12:00:30Z")!

func parseFeed(at now: Date) -> @Sendable (Data) throws -> TrafficFeed {
    { data in try TrafficFeedParser.parse(data, now: now) }
}

@Suite(.serialized) struct CachedFetcherTests {
    @Test func freshEntryIsUsedWithoutAskingAndExpiredOneIsRevalidatedWith304() async throws {
        let server = try FeedServer()
        try await server.script(
            "/feed",
            .init(
                headers: [
                    "ETag": "\"m1\"", "Cache-Control": "max-age=60", "Last-Modified": "Wed, 25 Nov 2026 12:00:00 GMT",
                ],
                file: "feed-model-1.json", etagAware: true))
        let fetcher = CachedFetcher(fetcher: HTTPFetcher(timeout: 5), cache: try temporaryCache())
        let first = try await fetcher.fetch(server.url("/feed"), now: noon, accept: parseFeed(at: noon))
        #expect(first.origin == .network && first.freshness == .fresh)
        #expect(first.value.trafficModelID == "1764072000")

        let later = noon.addingTimeInterval(30)
        let cached = try await fetcher.fetch(server.url("/feed"), now: later, accept: parseFeed(at: later))
        #expect(cached.origin == .cache && cached.value.trafficModelID == "1764072000")
        #expect(try await server.requests("/feed").count == 1)

        let expired = noon.addingTimeInterval(90)
        let revalidated = try await fetcher.fetch(server.url("/feed"), now: expired, accept: parseFeed(at: expired))
        #expect(revalidated.origin == .revalidated && revalidated.freshness == .fresh)
        #expect(revalidated.receivedAt == expired)
        let requests = try await server.requests("/feed")
        #expect(requests.map(\.status) == [200, 304])
        #expect(requests.last?.ifNoneMatch == "\"m1\"")
        #expect(requests.last?.ifModifiedSince == "Wed, 25 Nov 2026 12:00:00 GMT")
        // The 304 renewed the lifetime: another 30 s later, no request.
        let renewed = expired.addingTimeInterval(30)
        _ = try await fetcher.fetch(server.url("/feed"), now: renewed, accept: parseFeed(at: renewed))
        #expect(try await server.requests("/feed").count == 2)
    }

    @Test func noStoreAnswersAreNotKept() async throws {
        let server = try FeedServer()
        try await server.script(
            "/feed", .init(headers: ["Cache-Control": "no-store", "ETag": "\"m1\""], file: "feed-model-1.json"))
        let cache = try temporaryCache()
        let fetcher = CachedFetcher(fetcher: HTTPFetcher(timeout: 5), cache: cache)
        _ = try await fetcher.fetch(server.url("/feed"), now: noon, accept: parseFeed(at: noon))
        _ = try await fetcher.fetch(server.url("/feed"), now: noon, accept: parseFeed(at: noon))
        #expect(cache.entry(for: server.url("/feed").absoluteString, now: noon) == nil)
        #expect(try await server.requests("/feed").map(\.ifNoneMatch) == [nil, nil])
    }

    @Test func serverErrorsAndTimeoutsServeTheStoredCopyMarkedStale() async throws {
        let server = try FeedServer()
        try await server.script(
            "/feed", .init(headers: ["Cache-Control": "max-age=0"], file: "feed-model-1.json"),
            .init(status: 503, body: "busy"), .init(file: "feed-model-2.json", delay: 8))
        let fetcher = CachedFetcher(fetcher: HTTPFetcher(timeout: 3), cache: try temporaryCache())
        _ = try await fetcher.fetch(server.url("/feed"), now: noon, accept: parseFeed(at: noon))
        let busy = try await fetcher.fetch(server.url("/feed"), now: noon, accept: parseFeed(at: noon))
        #expect(busy.freshness == .stale(reason: "HTTP 503") && busy.origin == .offline)
        #expect(busy.value.trafficModelID == "1764072000" && busy.receivedAt == noon)
        let slow = try await fetcher.fetch(server.url("/feed"), now: noon, accept: parseFeed(at: noon))
        #expect(slow.freshness == .stale(reason: "timed out"))
        #expect(slow.value.trafficModelID == "1764072000")
    }

    @Test func withNothingStoredFailuresAreClearErrors() async throws {
        let server = try FeedServer()
        try await server.script("/feed", .init(status: 500, body: "oops"))
        let fetcher = CachedFetcher(fetcher: HTTPFetcher(timeout: 5), cache: try temporaryCache())
        await #expect(throws: CachedFetchError.self) {
            try await fetcher.fetch(server.url("/feed"), now: noon, accept: parseFeed(at: noon))
        }
        do {
            _ = try await fetcher.fetch(server.url("/missing"), now: noon, accept: parseFeed(at: noon))
            Issue.record("a 404 gave a body")
        } catch {
            #expect("\(error)".hasSuffix("/missing: the server answered HTTP 404"))
        }
        // Nobody listens on the port any more.
        let gone = URL(string: "http://127.0.0.1:\(server.port)/feed")!
        server.stop()
        do {
            _ = try await fetcher.fetch(gone, now: noon, accept: parseFeed(at: noon))
            Issue.record("a closed port gave a body")
        } catch {
            guard case .unavailable(.connectionFailed) = error else { throw error }
        }
    }

    @Test func aMalformedAnswerIsRefusedAndTheStoredCopyStays() async throws {
        let server = try FeedServer()
        try await server.script(
            "/feed", .init(headers: ["Cache-Control": "max-age=0", "ETag": "\"m1\""], file: "feed-model-1.json"),
            .init(headers: ["Cache-Control": "max-age=600", "ETag": "\"bad\""], file: "feed-truncated.json"))
        let cache = try temporaryCache()
        let fetcher = CachedFetcher(fetcher: HTTPFetcher(timeout: 5), cache: cache)
        _ = try await fetcher.fetch(server.url("/feed"), now: noon, accept: parseFeed(at: noon))
        do {
            _ = try await fetcher.fetch(server.url("/feed"), now: noon, accept: parseFeed(at: noon))
            Issue.record("a truncated feed was accepted")
        } catch {
            guard case .rejected(_, false, let reason) = error, case .malformedJSON = reason as? TrafficFeedError else {
                throw error
            }
        }
        let kept = try #require(cache.entry(for: server.url("/feed").absoluteString, now: noon))
        #expect(kept.eTag == "\"m1\"")
        #expect(try TrafficFeedParser.parse(kept.body, now: noon).trafficModelID == "1764072000")
    }

    @Test func cacheControlDirectives() {
        #expect(CacheControl(header: "public, max-age=30").freshnessLifetime == 30)
        #expect(CacheControl(header: "max-age=\"45\"").maxAge == 45)
        #expect(CacheControl(header: "max-age=60, no-cache").freshnessLifetime == 0)
        #expect(CacheControl(header: "max-age=-5").freshnessLifetime == 0)
        #expect(CacheControl(header: "No-Store").noStore)
        #expect(CacheControl(header: nil).freshnessLifetime == 0)
    }
}

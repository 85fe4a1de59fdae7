import Foundation
import Synchronization
import Testing
import Traffic

@testable import TrafficFeedHTTP

@Suite(.serialized) struct TrafficPollerTests {
    func poller(_ server: FeedServer, modelID: Bool = true, timeout: TimeInterval = 5) throws -> TrafficPoller {
        TrafficPoller(
            source: TrafficSource(
                feedURL: server.base + "/feed?model={trafficModelId}",
                modelIDURL: modelID ? server.url("/model") : nil),
            fetcher: CachedFetcher(fetcher: HTTPFetcher(timeout: timeout), cache: try temporaryCache()))
    }

    @Test func fetchesTheFeedOnlyWhenTheModelIDChanges() async throws {
        let server = try FeedServer()
        try await server.script(
            "/model", .init(file: "model-id-1.json"), .init(file: "model-id-1.json"), .init(file: "model-id-2.json"))
        try await server.script("/feed?model=1764072000", .init(file: "feed-model-1.json"))
        try await server.script("/feed?model=1764072060", .init(file: "feed-model-2.json"))
        let poller = try poller(server)

        guard case .updated(let first) = await poller.poll(now: noon) else { Issue.record("no first feed"); return }
        #expect(first.feed.trafficModelID == "1764072000" && first.freshness == .fresh)
        #expect(first.feed.flow.count == 1 && first.feed.skipped.map(\.position) == ["flowSegments[1]"])
        guard case .unchanged = await poller.poll(now: noon.addingTimeInterval(30)) else {
            Issue.record("same model id, yet not unchanged")
            return
        }
        guard case .updated(let second) = await poller.poll(now: noon.addingTimeInterval(60)) else {
            Issue.record("a new model id gave no new feed")
            return
        }
        #expect(second.feed.trafficModelID == "1764072060")
        #expect(try await server.requests("/model").count == 3)
        #expect(try await server.requests("/feed?model=1764072000").count == 1)
        #expect(try await server.requests("/feed?model=1764072060").count == 1)
        let statistics = await poller.statistics
        #expect(statistics.polls == 3 && statistics.modelIDUnchanged == 1 && statistics.updates == 2)
    }

    @Test func withoutAModelIDServiceTheFeedIsRevalidatedEachPoll() async throws {
        let server = try FeedServer()
        try await server.script(
            "/feed?model=",
            .init(headers: ["ETag": "\"a\"", "Cache-Control": "max-age=0"], file: "feed-model-1.json", etagAware: true))
        let poller = try poller(server, modelID: false)
        guard case .updated = await poller.poll(now: noon) else { Issue.record("no first feed"); return }
        guard case .unchanged(let again) = await poller.poll(now: noon.addingTimeInterval(30)) else {
            Issue.record("a 304 is not unchanged")
            return
        }
        #expect(again.origin == .revalidated)
        #expect(try await server.requests("/feed?model=").map(\.status) == [200, 304])
    }

    @Test func badFeedsChangeNothing() async throws {
        let server = try FeedServer()
        try await server.script(
            "/model", .init(file: "model-id-1.json"), .init(body: "{\"trafficModelId\": \"truncated\"}"),
            .init(body: "{\"trafficModelId\": \"clock\"}"), .init(body: "<html>maintenance</html>"))
        try await server.script("/feed?model=1764072000", .init(file: "feed-model-1.json"))
        try await server.script("/feed?model=truncated", .init(file: "feed-truncated.json"))
        try await server.script("/feed?model=clock", .init(file: "feed-clock-lies.json"))
        let poller = try poller(server)
        _ = await poller.poll(now: noon)

        guard case .failed(.feed(.rejected(_, _, let truncated)), let held) = await poller.poll(now: noon) else {
            Issue.record("a truncated feed was taken")
            return
        }
        guard case .malformedJSON = truncated as? TrafficFeedError else { throw truncated }
        #expect(held?.feed.trafficModelID == "1764072000")
        guard case .failed(.feed(.rejected(_, _, let clock)), _) = await poller.poll(now: noon) else {
            Issue.record("a feed from the future was taken")
            return
        }
        guard case .generatedInTheFuture = clock as? TrafficFeedError else { throw clock }
        guard case .failed(.modelIDUnreadable, _) = await poller.poll(now: noon) else {
            Issue.record("an HTML answer gave a model id")
            return
        }
        #expect(await poller.current?.feed.trafficModelID == "1764072000")
        #expect(await poller.current?.freshness == .fresh)
        #expect(await poller.statistics.failures == ["feed refused": 2, "model id unreadable": 1])
    }

    @Test func anUnreachableServerKeepsTheFeedMarkedStale() async throws {
        let server = try FeedServer()
        try await server.script(
            "/model", .init(file: "model-id-1.json"), .init(status: 502), .init(file: "model-id-1.json", delay: 8))
        try await server.script("/feed?model=1764072000", .init(file: "feed-model-1.json"))
        let poller = try poller(server, timeout: 3)
        _ = await poller.poll(now: noon)
        guard case .failed(.modelIDUnavailable(.status(_, 502)), let held) = await poller.poll(now: noon) else {
            Issue.record("a 502 was not a failure")
            return
        }
        #expect(held?.freshness == .stale(reason: "HTTP 502"))
        guard case .failed(.modelIDUnavailable(.timedOut), let slow) = await poller.poll(now: noon) else {
            Issue.record("a slow answer did not time out")
            return
        }
        #expect(slow?.feed.trafficModelID == "1764072000")
        #expect(await poller.statistics.failures == ["model id: HTTP 502": 1, "model id: timed out": 1])
    }

    @Test func aNewPollerWhileOfflineStartsFromTheCachedFeed() async throws {
        let server = try FeedServer()
        try await server.script("/model", .init(file: "model-id-1.json"), .init(status: 503))
        try await server.script(
            "/feed?model=1764072000", .init(headers: ["Cache-Control": "max-age=0"], file: "feed-model-1.json"),
            .init(status: 503))
        let cache = try temporaryCache()
        let source = TrafficSource(
            feedURL: server.base + "/feed?model={trafficModelId}", modelIDURL: server.url("/model"))
        let online = TrafficPoller(
            source: source, fetcher: CachedFetcher(fetcher: HTTPFetcher(timeout: 5), cache: cache))
        _ = await online.poll(now: noon)
        // A restart: a new poller on the same cache directory, the service down.
        let reopened = try ResponseCache(directory: cache.directory)
        let restarted = TrafficPoller(
            source: TrafficSource(feedURL: server.base + "/feed?model=1764072000", modelIDURL: server.url("/model")),
            fetcher: CachedFetcher(fetcher: HTTPFetcher(timeout: 5), cache: reopened))
        guard case .updated(let stale) = await restarted.poll(now: noon.addingTimeInterval(60)) else {
            Issue.record("no feed from the cache while offline")
            return
        }
        #expect(stale.freshness == .stale(reason: "HTTP 503") && stale.origin == .offline)
        #expect(stale.feed.trafficModelID == "1764072000" && stale.receivedAt == noon)
    }

    @Test func runPollsEveryIntervalOnTheClockItIsGiven() async throws {
        let server = try FeedServer()
        try await server.script(
            "/model", .init(file: "model-id-1.json"), .init(file: "model-id-1.json"), .init(file: "model-id-2.json"))
        try await server.script("/feed?model=1764072000", .init(file: "feed-model-1.json"))
        try await server.script("/feed?model=1764072060", .init(file: "feed-model-2.json"))
        let clock = SteppingClock(start: noon)
        let results = Mutex<[String]>([])
        let poller = try poller(server)
        let task = Task {
            await poller.run(clock: clock) { result in
                let word: String
                switch result {
                case .updated(let update): word = "updated \(update.feed.trafficModelID)"
                case .unchanged: word = "unchanged"
                case .failed(let error, _): word = "failed \(error)"
                }
                let count = results.withLock {
                    $0.append(word)
                    return $0.count
                }
                if count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        await task.value
        #expect(results.withLock { $0 } == ["updated 1764072000", "unchanged", "updated 1764072060"])
        #expect(clock.sleeps == [noon.addingTimeInterval(30), noon.addingTimeInterval(60)])
    }
}

/// A clock whose sleeps return at once and move its time to the deadline.
final class SteppingClock: PollingClock {
    private let state: Mutex<(now: Date, sleeps: [Date])>
    init(start: Date) { state = Mutex((start, [])) }
    var sleeps: [Date] { state.withLock { $0.sleeps } }
    func now() -> Date { state.withLock { $0.now } }
    func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.sleeps.append(deadline)
            $0.now = max($0.now, deadline)
        }
    }
}

import Foundation
import GNSSSources
import Logging
import Testing
import Traffic
import TrafficFeedHTTP

@testable import HorizonDaemon

/// The fix at receiver second 1000 + `second` on the street.
private func arrival(_ second: Double) -> FixInbox.Arrival {
    .init(fix: streetFix(second), receivedAt: second + 0.1)
}

/// The results of polling `[traffic] url` in the daemon core: new models taken like feed files,
/// failed polls counted by reason with the previous traffic kept, staleness as a gauge.
@Suite("daemon core: traffic polled over HTTP")
struct DaemonTrafficPollTests {
    /// The poller's update carrying `data` (parsed at the receiver's second 1000).
    static func update(_ data: Data, _ freshness: Freshness = .fresh) throws -> TrafficUpdate {
        TrafficUpdate(
            feed: try TrafficFeedParser.parse(data, now: Date(timeIntervalSince1970: 1000)), freshness: freshness,
            origin: freshness == .fresh ? .network : .offline, receivedAt: Date(timeIntervalSince1970: 1000), body: data
        )
    }

    static func logs(_ effects: [DaemonEffect], _ level: Logger.Level) -> [String] {
        effects.compactMap { if case .log(level, let line) = $0 { line } else { nil } }
    }

    @Test(
        "a new model waits for the first fix, then is taken; failures keep it, are counted and logged once; stale is a gauge"
    )
    func polls() throws {
        var core = try DaemonCore(
            configuration: try daemonConfiguration(), path: "test.toml", map: street(), metadata: streetMetadata,
            watchdogInterval: nil, at: 0)
        let m1 = try Self.update(streetFeed(model: "m1", flow: streetJam))
        #expect(core.takeTrafficPoll(.updated(m1), source: "http://x/f", at: 0).outcome == .waitingForTime)
        _ = core.receive(arrival(0))
        #expect(core.takeTrafficPoll(.updated(m1), source: "http://x/f", at: 0.2).outcome == .applied)
        #expect(core.snapshot(at: 1, gnss: .init(connected: true)).trafficObjects == 1)

        // The server gone: the poller keeps m1, marked stale.
        var stale = m1
        stale.freshness = .stale(reason: "connection failed")
        let down = TrafficPollError.modelIDUnavailable(.connectionFailed(url: "http://x/model", reason: "refused"))
        let first = core.takeTrafficPoll(.failed(down, current: stale), source: "http://x/f", at: 0.5)
        #expect(first.outcome == .refused)
        #expect(Self.logs(first.effects, .warning).contains { $0.contains("keeping traffic model m1") })
        let second = core.takeTrafficPoll(.failed(down, current: stale), source: "http://x/f", at: 0.6)
        #expect(second.effects.isEmpty, "a failure is logged once per episode")
        var metrics = core.snapshot(at: 1, gnss: .init(connected: true))
        #expect(metrics.trafficPollsFailed == ["model_id_connection_failed": 2])
        #expect(metrics.trafficStale && metrics.trafficObjects == 1)
        #expect(metrics.prometheusText.contains("adasis_traffic_stale 1"))

        // Back, with the same model: fresh again, logged.
        let back = core.takeTrafficPoll(.unchanged(m1), source: "http://x/f", at: 0.7)
        #expect(back.outcome == .unchanged)
        #expect(Self.logs(back.effects, .notice).contains { $0.contains("works again") })
        // A truncated model is refused by the poller: counted by the parser's reason, m1 kept.
        let truncated = streetFeed(model: "m2", flow: streetJam)
        let parseError = #expect(throws: TrafficFeedError.self) {
            try TrafficFeedParser.parse(truncated.prefix(truncated.count / 2), now: Date(timeIntervalSince1970: 1000))
        }
        let refused = TrafficPollError.feed(
            .rejected(url: "http://x/f", fromCache: false, error: try #require(parseError)))
        #expect(core.takeTrafficPoll(.failed(refused, current: m1), source: "http://x/f", at: 0.8).outcome == .refused)
        metrics = core.snapshot(at: 1, gnss: .init(connected: true))
        #expect(metrics.trafficPollsFailed == ["model_id_connection_failed": 2, "feed_malformed_json": 1])
        #expect(!metrics.trafficStale && metrics.trafficPolls == 5 && metrics.trafficFeedsApplied == 1)
        #expect(metrics.prometheusText.contains("adasis_traffic_polls_failed_total{reason=\"feed_malformed_json\"} 1"))
    }

    @Test("a model whose feed lies about the receiver's clock is refused like a file, the previous traffic kept")
    func receiverClock() throws {
        var core = try DaemonCore(
            configuration: try daemonConfiguration(), path: "test.toml", map: street(), metadata: streetMetadata,
            watchdogInterval: nil, at: 0)
        _ = core.receive(arrival(0))
        #expect(
            core.takeTrafficPoll(
                .updated(try Self.update(streetFeed(model: "m1", flow: streetJam))), source: "u", at: 0.2
            )
            .outcome == .applied)
        // Made 4000 s after the receiver's time: the poller (system clock) took it, the core refuses it.
        let future = streetFeed(model: "m2", flow: streetJam, generated: 5000)
        let update = TrafficUpdate(
            feed: try TrafficFeedParser.parse(future, now: Date(timeIntervalSince1970: 5000)), freshness: .fresh,
            origin: .network, receivedAt: Date(timeIntervalSince1970: 5000), body: future)
        let (outcome, effects) = core.takeTrafficPoll(.updated(update), source: "u", at: 0.3)
        #expect(outcome == .refused)
        #expect(Self.logs(effects, .warning).contains { $0.contains("keeping traffic model m1") })
        #expect(core.snapshot(at: 1, gnss: .init(connected: true)).trafficFeedsRefused == ["clock": 1])
    }
}

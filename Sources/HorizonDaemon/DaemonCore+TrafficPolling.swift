import Foundation
import Traffic
import TrafficFeedHTTP

/// What the daemon knows of the polls of `[traffic] url`.
struct TrafficPolling: Hashable {
    /// Polls whose result the core took.
    var polls = 0
    /// Polls that brought nothing usable, by reason (``DaemonCore/pollFailureName(_:)``).
    var failed: [String: Int] = [:]
    /// Why the feed held is stale (served from the cache, or kept, because the server could not
    /// be asked); `nil` while it is fresh or there is none.
    var staleReason: String?
    /// Whether the last poll failed (a failure is logged once per episode).
    var failing = false
}

extension DaemonCore {
    /// Takes the result of one poll of the feed URL `source` (`[traffic] url`) at monotonic time
    /// `now`. A new traffic model is checked against the receiver's time and taken or refused as a
    /// feed file is (``takeTrafficFeed(_:source:at:)``); a failed poll (the server down, slow or
    /// erring, an answer refused) keeps the previous traffic, is counted by reason and logged once
    /// per episode; a feed kept or served from the cache while the server cannot be asked is
    /// marked stale (`adasis_traffic_stale`). Returns `waitingForTime` when a new model came
    /// before the first fix: the run loop offers it again.
    public mutating func takeTrafficPoll(_ result: TrafficPollResult, source: String, at now: Double) -> (
        outcome: TrafficFeedOutcome, effects: [DaemonEffect]
    ) {
        var effects: [DaemonEffect] = []
        switch result {
        case .updated(let update):
            guard lastFix != nil else { return (.waitingForTime, []) }
            effects += pollSucceeded(update, source: source)
            let (outcome, taken) = takeTrafficFeed(update.body, source: source, at: now)
            return (outcome, effects + taken)
        case .unchanged(let update):
            effects += pollSucceeded(update, source: source)
            return (.unchanged, effects)
        case .failed(let error, let current):
            trafficPolling.polls += 1
            let reason = Self.pollFailureName(error)
            trafficPolling.failed[reason, default: 0] += 1
            if case .stale(let why)? = current?.freshness { trafficPolling.staleReason = why }
            if !trafficPolling.failing {
                let keeping =
                    traffic.layer.map { "keeping traffic model \($0.trafficModelID)" } ?? "no traffic meanwhile"
                effects.append(.log(.warning, "traffic poll of \(source) failed (\(keeping)): \(error)"))
            }
            trafficPolling.failing = true
            return (.refused, effects)
        }
    }

    /// The metric label of a failed poll: where it failed and why, in snake case
    /// (`model_id_connection_failed`, `feed_http_503`, `feed_malformed_json`, …).
    static func pollFailureName(_ error: TrafficPollError) -> String {
        if case .feed(.rejected(_, _, let reason)) = error, let feedError = reason as? TrafficFeedError {
            return "feed_" + refusalName(feedError)
        }
        let words = error.name.lowercased().split { !$0.isLetter && !$0.isNumber }
        return words.joined(separator: "_")
    }

    private mutating func pollSucceeded(_ update: TrafficUpdate, source: String) -> [DaemonEffect] {
        trafficPolling.polls += 1
        if case .stale(let why) = update.freshness {
            trafficPolling.staleReason = why
        } else {
            trafficPolling.staleReason = nil
        }
        defer { trafficPolling.failing = false }
        guard trafficPolling.failing else { return [] }
        return [.log(.notice, "traffic poll of \(source) works again (\(update.freshness))")]
    }
}

import DaemonConfiguration
import Foundation
import Synchronization
import TrafficFeedHTTP

/// Polls the traffic feed of `[traffic] url` over HTTP, with traffic-model-id sync and the disk
/// cache (`TrafficPoller`, `ResponseCache`), on a task of its own; the run loop hands the results
/// to the core each tick (``handOver(to:at:)``). The daemon opens no listening socket for it.
final class TrafficFeedPolling: Sendable {
    /// The feed URL as configured (named in logs).
    let source: String
    private let poller: TrafficPoller
    private let results = Mutex<[TrafficPollResult]>([])
    /// A new traffic model that came before the first fix, offered again each tick until taken.
    private let waiting = Mutex<TrafficPollResult?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    private init(source: String, poller: TrafficPoller) {
        self.source = source
        self.poller = poller
    }

    /// Starts polling when `settings` name a URL; `nil` otherwise.
    /// - Throws: ``ConfigurationError`` naming `traffic.cache_dir` when the cache directory cannot
    ///   be made or read.
    static func start(_ settings: TrafficSettings, file: String) throws(ConfigurationError) -> TrafficFeedPolling? {
        guard let url = settings.url else { return nil }
        let cache: ResponseCache?
        do {
            cache = try settings.cacheDirectory.map {
                try ResponseCache(directory: URL(fileURLWithPath: $0), byteBudget: settings.cacheBytes)
            }
        } catch {
            throw ConfigurationError(
                file: file, key: "traffic.cache_dir", line: nil,
                problem: "\(error); choose a directory the daemon may write (or remove the key to cache nothing)")
        }
        let source = TrafficSource(
            feedURL: url, modelIDURL: settings.modelIDURL.flatMap { URL(string: $0) }, interval: settings.pollInterval)
        let polling = TrafficFeedPolling(
            source: url,
            poller: TrafficPoller(source: source, fetcher: CachedFetcher(fetcher: HTTPFetcher(), cache: cache)))
        polling.task.withLock { task in
            task = Task.detached { [poller = polling.poller, polling] in
                await poller.run(clock: SystemPollingClock()) { result in polling.results.withLock { $0.append(result) }
                }
            }
        }
        return polling
    }

    /// Stops polling (a reload that changed `[traffic]`, or the daemon stopping).
    func stop() {
        task.withLock { $0?.cancel() }
    }

    /// Hands the polls' results to `core` in order, at monotonic time `now`; a new traffic model
    /// that must wait for the first fix is kept (a newer one replaces it).
    func handOver(to core: inout DaemonCore, at now: Double) -> [DaemonEffect] {
        var pending = results.withLock { results in
            defer { results.removeAll() }
            return results
        }
        if let held = waiting.withLock({ $0 }) { pending.insert(held, at: 0) }
        var effects: [DaemonEffect] = []
        var stillWaiting: TrafficPollResult?
        for result in pending {
            let (outcome, produced) = core.takeTrafficPoll(result, source: source, at: now)
            effects += produced
            if outcome == .waitingForTime { stillWaiting = result }
        }
        waiting.withLock { $0 = stillWaiting }
        return effects
    }
}

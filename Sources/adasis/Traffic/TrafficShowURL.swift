import ArgumentParser
import Dispatch
import Foundation
import RoadMapStore
import Synchronization
import Traffic
import TrafficFeedHTTP

/// `adasis traffic show`'s options for a feed URL.
struct TrafficTransportOptions: ParsableArguments {
    @Option(help: "Cache HTTP answers in this directory (Cache-Control, ETag revalidation, served stale when offline).")
    var cache: String?

    @Option(help: "The cache's byte budget (least recently used entries are evicted beyond it).")
    var cacheBudget: Int = ResponseCache.defaultByteBudget

    @Option(
        help: "A traffic-model-id service to ask first; {trafficModelId} in the feed URL is replaced by its id.")
    var modelIDURL: String?

    @Option(help: "Seconds a request may take.")
    var timeout: Double = 10
}

extension TrafficShowCommand {
    /// Fetches the feed at the URL (through the cache), then prints its freshness and the report.
    func showFromURL(now: Date, mode: FlowDisplayMode) throws {
        var modelIDService: URL?
        if let modelIDURL {
            guard let url = URL(string: modelIDURL) else {
                printToStandardError("adasis traffic show: --model-id-url \(modelIDURL) is not a URL")
                throw ExitCode.validationFailure
            }
            modelIDService = url
        }
        guard transport.timeout > 0, transport.cacheBudget > 0 else {
            printToStandardError("adasis traffic show: --timeout and --cache-budget must be positive")
            throw ExitCode.validationFailure
        }
        let cache: ResponseCache?
        do {
            cache = try transport.cache.map {
                try ResponseCache(directory: URL(fileURLWithPath: $0), byteBudget: transport.cacheBudget)
            }
        } catch {
            printToStandardError("adasis traffic show: \(error)")
            throw ExitCode.failure
        }
        let poller = TrafficPoller(
            source: TrafficSource(feedURL: feed, modelIDURL: modelIDService),
            fetcher: CachedFetcher(fetcher: HTTPFetcher(timeout: transport.timeout), cache: cache))
        let result = waitFor { await poller.poll(now: now) }
        let update: TrafficUpdate
        switch result {
        case .updated(let fetched), .unchanged(let fetched): update = fetched
        case .failed(let error, _):
            var hint = ""
            if case .feed(.rejected(_, _, let reason)) = error, case .expired = reason as? TrafficFeedError, at == nil {
                hint = " (replaying a recorded feed? give its time with --at)"
            }
            printToStandardError("adasis traffic show: \(error)\(hint)")
            throw ExitCode.failure
        }
        let layer: TrafficLayer
        do {
            layer = TrafficLayer(feed: update.feed, network: try MapFile(path: map))
        } catch {
            printToStandardError("adasis traffic show: \(error)")
            throw ExitCode.failure
        }
        let origins: [BodyOrigin: String] = [
            .network: "from the server", .cache: "from the cache (within its max-age)",
            .revalidated: "from the cache (the server answered 304 Not Modified)",
            .offline: "from the cache (the server could not be asked)",
        ]
        print(
            "traffic model \(update.feed.trafficModelID): \(update.freshness), \(origins[update.origin] ?? ""), "
                + "received \(ISO8601DateFormatter().string(from: update.receivedAt))")
        print(TrafficReport(layer: layer, feed: update.feed, mode: mode).text)
        if let cache {
            let counts = cache.statistics
            print(
                "cache \(cache.directory.path): \(cache.storedBytes) of \(cache.byteBudget) bytes; hits \(counts.hits), "
                    + "stores \(counts.stores), evictions \(counts.evictions), corrupt entries removed "
                    + "\(counts.corruptEntriesRemoved), interrupted writes removed \(counts.temporaryFilesRemoved), "
                    + "write failures \(counts.writeFailures)")
        }
    }

    private var modelIDURL: String? { transport.modelIDURL }
}

/// Runs `work` to its end from synchronous code (this command's `run`), blocking the caller.
private func waitFor<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
    let result = Mutex<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await work()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    guard let value = result.withLock({ $0 }) else { preconditionFailure("the task signals after it sets the value") }
    return value
}

import Foundation
import Traffic

/// Where and how often to poll a traffic feed.
public struct TrafficSource: Hashable, Sendable {
    /// The feed's URL (Docs/traffic-feed.md's JSON). `{trafficModelId}` in it is replaced by the
    /// model id the model-id service named, as TomTom's requests name the model they want.
    public var feedURL: String
    /// The traffic-model-id service, polled each interval; the feed is fetched only when the id it
    /// names changes. Without it the feed itself is polled (revalidated through the cache). When the
    /// service cannot be reached and no feed is held (a start while offline), the cached copy of the
    /// feed URL is served, stale, if that URL does not name the model id.
    public var modelIDURL: URL?
    /// Seconds between polls (TomTom's SDK: 30).
    public var interval: TimeInterval

    /// Creates a source.
    public init(feedURL: String, modelIDURL: URL? = nil, interval: TimeInterval = 30) {
        self.feedURL = feedURL
        self.modelIDURL = modelIDURL
        self.interval = interval
    }

    /// The feed's URL for `modelID`.
    public func feedURL(modelID: String?) -> URL? {
        let id = modelID?.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(["&", "=", "+"]))
        return URL(string: feedURL.replacingOccurrences(of: TrafficPoller.modelIDPlaceholder, with: id ?? ""))
    }
}

/// A feed the poller holds, with how current it is.
public struct TrafficUpdate: Sendable {
    /// The parsed feed (its `trafficModelID`, records and skipped records).
    public var feed: TrafficFeed
    /// Fresh, or stale (served from the cache because the server could not be asked).
    public var freshness: Freshness
    /// Where the feed's bytes came from.
    public var origin: BodyOrigin
    /// When the server last sent or confirmed it.
    public var receivedAt: Date
    /// The feed's bytes as served, for a user that checks them again against its own time (the
    /// daemon checks against the receiver's clock, the poller against the system's).
    public var body: Data

    /// Creates an update.
    public init(feed: TrafficFeed, freshness: Freshness, origin: BodyOrigin, receivedAt: Date, body: Data) {
        self.feed = feed
        self.freshness = freshness
        self.origin = origin
        self.receivedAt = receivedAt
        self.body = body
    }
}

/// Why a poll got no new feed (the poller keeps the one it had).
public enum TrafficPollError: Error, Sendable, CustomStringConvertible {
    /// The model-id service could not be asked.
    case modelIDUnavailable(HTTPFetchError)
    /// The model-id service's answer had no id.
    case modelIDUnreadable(TrafficModelIDAnswerError)
    /// The feed URL is not a URL once the model id is put in.
    case badFeedURL(String)
    /// The feed could not be fetched or was refused (``TrafficFeedError`` inside).
    case feed(CachedFetchError)

    /// A short name for counting by reason.
    public var name: String {
        switch self {
        case .modelIDUnavailable(let error): return "model id: \(error.name)"
        case .modelIDUnreadable: return "model id unreadable"
        case .badFeedURL: return "bad feed URL"
        case .feed(.unavailable(let error)): return "feed: \(error.name)"
        case .feed(.rejected): return "feed refused"
        }
    }

    public var description: String {
        switch self {
        case .modelIDUnavailable(let error): return "traffic model id: \(error)"
        case .modelIDUnreadable(let error): return "traffic model id: \(error)"
        case .badFeedURL(let url): return "\(url) is not a URL"
        case .feed(let error): return "traffic feed: \(error)"
        }
    }
}

/// What one poll did.
public enum TrafficPollResult: Sendable {
    /// A feed of another traffic model than the one held (or the first one).
    case updated(TrafficUpdate)
    /// The traffic model is the one held; nothing new (its freshness may have changed).
    case unchanged(TrafficUpdate)
    /// Nothing usable came; the poller keeps what it held (marked stale when the server is gone).
    case failed(TrafficPollError, current: TrafficUpdate?)
}

/// Counts of a poller's work and of the outside world's faults, since it started.
public struct TrafficPollStatistics: Hashable, Sendable {
    /// Polls made.
    public var polls = 0
    /// Requests to the model-id service.
    public var modelIDRequests = 0
    /// Polls that found the model id unchanged and fetched no feed.
    public var modelIDUnchanged = 0
    /// Feeds fetched through the cache (from the network, revalidated or from the cache).
    public var feedFetches = 0
    /// New traffic models taken.
    public var updates = 0
    /// Failed polls by reason (``TrafficPollError/name``).
    public var failures: [String: Int] = [:]
}

/// Polls a traffic feed with TomTom's traffic-model-id sync: asks the model-id service every
/// ``TrafficSource/interval`` and fetches the feed (through the cache) only when the id changes.
/// Bad answers change nothing: the held feed stays until a good one comes. Time is passed in.
public actor TrafficPoller {
    /// The text of a feed URL that the model id replaces.
    public static let modelIDPlaceholder = "{trafficModelId}"
    /// What is polled.
    public let source: TrafficSource
    private let fetcher: CachedFetcher
    /// The feed held now, if any.
    public private(set) var current: TrafficUpdate?
    /// What the poller did.
    public private(set) var statistics = TrafficPollStatistics()

    /// Creates a poller of `source` through `fetcher`.
    public init(source: TrafficSource, fetcher: CachedFetcher) {
        self.source = source
        self.fetcher = fetcher
    }

    /// Polls once at `now`.
    public func poll(now: Date) async -> TrafficPollResult {
        statistics.polls += 1
        var modelID: String?
        if let modelIDURL = source.modelIDURL {
            statistics.modelIDRequests += 1
            do {
                let answer = try await fetcher.fetcher.get(modelIDURL)
                modelID = try TrafficModelIDAnswer.parse(answer.body)
            } catch let error as HTTPFetchError {
                // Offline: keep what is held, marked stale; with nothing held, try the cached feed
                // (possible only when the feed URL does not name the model id).
                if current != nil || !error.isTransient || source.feedURL.contains(Self.modelIDPlaceholder) {
                    return fail(.modelIDUnavailable(error), stale: error.name)
                }
            } catch let error as TrafficModelIDAnswerError {
                return fail(.modelIDUnreadable(error), stale: nil)
            } catch {
                return fail(.modelIDUnreadable(TrafficModelIDAnswerError(excerpt: "\(error)")), stale: nil)
            }
            if let modelID, var held = current, held.feed.trafficModelID == modelID, held.feed.validUntil > now {
                statistics.modelIDUnchanged += 1
                held.freshness = .fresh
                held.receivedAt = now
                current = held
                return .unchanged(held)
            }
        }
        guard let url = source.feedURL(modelID: modelID) else {
            return fail(.badFeedURL(source.feedURL), stale: nil)
        }
        statistics.feedFetches += 1
        let fetched: FetchedBody<ParsedFeed>
        do {
            fetched = try await fetcher.fetch(url, now: now) { data in
                ParsedFeed(feed: try TrafficFeedParser.parse(data, now: now), body: data)
            }
        } catch {
            if case .unavailable(let network) = error { return fail(.feed(error), stale: network.name) }
            return fail(.feed(error), stale: nil)
        }
        let update = TrafficUpdate(
            feed: fetched.value.feed, freshness: fetched.freshness, origin: fetched.origin,
            receivedAt: fetched.receivedAt, body: fetched.value.body)
        let same = current?.feed.trafficModelID == update.feed.trafficModelID
        current = update
        if same { return .unchanged(update) }
        statistics.updates += 1
        return .updated(update)
    }

    /// Polls now and then every interval until the task is cancelled, handing each result to
    /// `handle`.
    public func run(clock: some PollingClock, handle: @Sendable (TrafficPollResult) async -> Void) async {
        var next = clock.now()
        while !Task.isCancelled {
            let now = clock.now()
            await handle(await poll(now: now))
            next = max(next.addingTimeInterval(source.interval), now)
            do { try await clock.sleep(until: next) } catch { return }
        }
    }

    private func fail(_ error: TrafficPollError, stale reason: String?) -> TrafficPollResult {
        statistics.failures[error.name, default: 0] += 1
        if let reason, var held = current {
            held.freshness = .stale(reason: reason)
            current = held
        }
        return .failed(error, current: current)
    }
}

/// A feed and the bytes it was parsed from.
private struct ParsedFeed: Sendable {
    var feed: TrafficFeed
    var body: Data
}

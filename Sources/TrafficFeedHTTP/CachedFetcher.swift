import Foundation

/// How current a body is.
public enum Freshness: Hashable, Sendable, CustomStringConvertible {
    /// From the server now, or from the cache within its lifetime, or confirmed by the server (304).
    case fresh
    /// From the cache because the server could not be asked; the reason it could not.
    case stale(reason: String)

    public var description: String {
        switch self {
        case .fresh: return "fresh"
        case .stale(let reason): return "stale (\(reason))"
        }
    }
}

/// Where a body came from.
public enum BodyOrigin: String, Hashable, Sendable {
    /// A 2xx answer of the server.
    case network
    /// The cache, within the entry's lifetime (the server was not asked).
    case cache
    /// The cache, after the server answered 304 Not Modified.
    case revalidated
    /// The cache, past its lifetime, because the server could not be reached.
    case offline
}

/// A body with where it came from and how current it is.
public struct FetchedBody<Value: Sendable>: Sendable {
    /// The accepted body.
    public var value: Value
    /// How current it is.
    public var freshness: Freshness
    /// Where it came from.
    public var origin: BodyOrigin
    /// When the server last sent or confirmed it.
    public var receivedAt: Date
}

/// Why a fetch through the cache gave nothing.
public enum CachedFetchError: Error, Sendable, CustomStringConvertible {
    /// The request failed and there is no stored copy.
    case unavailable(HTTPFetchError)
    /// The body (from the server, or the stored copy served while offline) was refused by the
    /// caller's check: the check's error, and whether it was the stored copy.
    case rejected(url: String, fromCache: Bool, error: any Error)

    public var description: String {
        switch self {
        case .unavailable(let error): return "\(error)"
        case .rejected(let url, let fromCache, let error):
            return "\(url): \(fromCache ? "the cached copy" : "the answer") was refused: \(error)"
        }
    }
}

/// GETs through a ``ResponseCache``: uses a fresh entry without asking; revalidates an expired one
/// with `If-None-Match` / `If-Modified-Since` (304 renews its lifetime); stores 200 answers the
/// caller's check accepts (a refused answer leaves the stored copy as it was) unless `no-store`;
/// serves the stored copy, marked stale, when the server cannot be reached or fails (5xx).
public struct CachedFetcher: Sendable {
    /// The network side.
    public let fetcher: HTTPFetcher
    /// The disk cache, or `nil` to always ask the server.
    public let cache: ResponseCache?

    /// Creates a fetcher over `fetcher` and `cache`.
    public init(fetcher: HTTPFetcher, cache: ResponseCache?) {
        self.fetcher = fetcher
        self.cache = cache
    }

    /// Fetches `url` at `now`; `accept` checks and converts a body (it throws to refuse one).
    public func fetch<Value: Sendable>(
        _ url: URL, now: Date, accept: (Data) throws -> Value
    ) async throws(CachedFetchError) -> FetchedBody<Value> {
        let key = url.absoluteString
        let stored = cache?.entry(for: key, now: now)
        if let stored, stored.isFresh(at: now) {
            return try accepted(stored, key, .fresh, .cache, accept)
        }
        var headers: [String: String] = [:]
        if let eTag = stored?.eTag { headers["If-None-Match"] = eTag }
        if let lastModified = stored?.lastModified { headers["If-Modified-Since"] = lastModified }
        let response: HTTPResponse
        do {
            response = try await fetcher.get(url, headers: headers)
        } catch {
            guard let stored, error.isTransient else { throw .unavailable(error) }
            return try accepted(stored, key, .stale(reason: error.name), .offline, accept)
        }
        let control = CacheControl(header: response.headers["cache-control"])
        if response.status == 304, var renewed = stored {
            renewed.storedAt = now
            // A 304 without Cache-Control keeps the stored lifetime (RFC 9111 § 4.3.4).
            if response.headers["cache-control"] != nil { renewed.freshnessLifetime = control.freshnessLifetime }
            renewed.eTag = response.headers["etag"] ?? renewed.eTag
            renewed.lastModified = response.headers["last-modified"] ?? renewed.lastModified
            let result = try accepted(renewed, key, .fresh, .revalidated, accept)
            if control.noStore { cache?.remove(url: key) } else { cache?.store(renewed) }
            return result
        }
        if response.status == 304 {
            // A 304 for a request we did not make conditional: the server is confused.
            throw .unavailable(.status(url: key, code: 304))
        }
        let value: Value
        do {
            value = try accept(response.body)
        } catch {
            throw .rejected(url: key, fromCache: false, error: error)
        }
        if control.noStore {
            cache?.remove(url: key)
        } else {
            cache?.store(
                CachedEntry(
                    url: key, eTag: response.headers["etag"], lastModified: response.headers["last-modified"],
                    storedAt: now, freshnessLifetime: control.freshnessLifetime, body: response.body))
        }
        return FetchedBody(value: value, freshness: .fresh, origin: .network, receivedAt: now)
    }

    private func accepted<Value: Sendable>(
        _ entry: CachedEntry, _ key: String, _ freshness: Freshness, _ origin: BodyOrigin,
        _ accept: (Data) throws -> Value
    ) throws(CachedFetchError) -> FetchedBody<Value> {
        do {
            let value = try accept(entry.body)
            return FetchedBody(value: value, freshness: freshness, origin: origin, receivedAt: entry.storedAt)
        } catch {
            throw .rejected(url: key, fromCache: true, error: error)
        }
    }
}

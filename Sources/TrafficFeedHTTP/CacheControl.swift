import Foundation

/// What a response's `Cache-Control` header allows a private cache (RFC 9111, the parts we use).
public struct CacheControl: Hashable, Sendable {
    /// `max-age`: seconds the response stays fresh after it was received; `nil` when absent.
    public var maxAge: Int?
    /// `no-store`: the response must not be written to the cache.
    public var noStore: Bool
    /// `no-cache`: the response may be stored but must be revalidated before every use.
    public var noCache: Bool

    /// Creates a policy.
    public init(maxAge: Int? = nil, noStore: Bool = false, noCache: Bool = false) {
        self.maxAge = maxAge
        self.noStore = noStore
        self.noCache = noCache
    }

    /// Reads a `Cache-Control` header value (`max-age=30, no-cache`). Unknown directives are
    /// ignored; a malformed or negative `max-age` counts as 0 (stale at once), as RFC 9111 § 4.2.1
    /// advises.
    public init(header: String?) {
        self.init()
        guard let header else { return }
        for part in header.split(separator: ",") {
            let directive = part.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard let name = directive.first else { continue }
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age":
                let value =
                    directive.count > 1 ? directive[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
                maxAge = max(0, Int(value) ?? 0)
            default: continue
            }
        }
    }

    /// Seconds a stored response is fresh for: `max-age`, 0 with `no-cache` or without `max-age`
    /// (we use no heuristic freshness: a traffic feed without a lifetime is revalidated each time).
    public var freshnessLifetime: TimeInterval {
        if noCache { return 0 }
        return TimeInterval(maxAge ?? 0)
    }
}

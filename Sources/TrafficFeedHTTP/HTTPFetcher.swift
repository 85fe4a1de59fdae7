import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP answer: the status, the headers (names lower-cased) and the body.
public struct HTTPResponse: Hashable, Sendable {
    /// The status code (200, 304, …).
    public var status: Int
    /// The headers, names lower-cased.
    public var headers: [String: String]
    /// The body (empty for 304).
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a request got no usable answer.
public enum HTTPFetchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not an http or https URL.
    case unsupportedURL(String)
    /// No answer within the timeout.
    case timedOut(url: String, seconds: TimeInterval)
    /// No connection (refused, no route, DNS, TLS, reset); the system's words.
    case connectionFailed(url: String, reason: String)
    /// The server answered with an error status.
    case status(url: String, code: Int)
    /// The body is larger than the limit.
    case bodyTooLarge(url: String, limit: Int)

    /// Whether the server or the network may be fine again later (a stale copy may be served
    /// meanwhile); a 4xx status or a bad URL is the request's fault.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .connectionFailed: return true
        case .status(_, let code): return code >= 500 || code == 429 || code == 408
        case .unsupportedURL, .bodyTooLarge: return false
        }
    }

    /// A short name for counting by reason.
    public var name: String {
        switch self {
        case .unsupportedURL: return "unsupported URL"
        case .timedOut: return "timed out"
        case .connectionFailed: return "connection failed"
        case .status(_, let code): return "HTTP \(code)"
        case .bodyTooLarge: return "body too large"
        }
    }

    public var description: String {
        switch self {
        case .unsupportedURL(let url): return "\(url) is not an http:// or https:// URL"
        case .timedOut(let url, let seconds): return "\(url): no answer within \(Int(seconds)) s"
        case .connectionFailed(let url, let reason): return "\(url): cannot connect: \(reason)"
        case .status(let url, let code): return "\(url): the server answered HTTP \(code)"
        case .bodyTooLarge(let url, let limit): return "\(url): the answer is larger than \(limit) bytes"
        }
    }
}

/// GET requests over URLSession (FoundationNetworking on Linux, libcurl underneath) with no
/// cookie store and no URLCache: caching is ``ResponseCache``'s job (Docs/traffic-feed.md says why).
public final class HTTPFetcher: Sendable {
    /// Seconds a request may take, connection and body included.
    public let timeout: TimeInterval
    /// The largest body accepted.
    public let maximumBodyBytes: Int
    private let session: URLSession

    /// Creates a fetcher.
    public init(timeout: TimeInterval = 10, maximumBodyBytes: Int = 20_000_000) {
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// GETs `url` with extra `headers`. 2xx and 304 are returned; other statuses throw.
    public func get(_ url: URL, headers: [String: String] = [:]) async throws(HTTPFetchError) -> HTTPResponse {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw .unsupportedURL(url.absoluteString)
        }
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError where error.code == .timedOut {
            throw .timedOut(url: url.absoluteString, seconds: timeout)
        } catch {
            throw .connectionFailed(url: url.absoluteString, reason: Self.reason(error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw .connectionFailed(url: url.absoluteString, reason: "not an HTTP answer")
        }
        guard (200..<300).contains(http.statusCode) || http.statusCode == 304 else {
            throw .status(url: url.absoluteString, code: http.statusCode)
        }
        guard data.count <= maximumBodyBytes else {
            throw .bodyTooLarge(url: url.absoluteString, limit: maximumBodyBytes)
        }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: fields, body: data)
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            let text = underlying.userInfo[NSLocalizedDescriptionKey] as? String
        {
            return text
        }
        if let text = nsError.userInfo[NSLocalizedDescriptionKey] as? String { return text }
        return "\(error)"
    }
}

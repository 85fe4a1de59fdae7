import FlyingFox
import FlyingSocks
import Foundation
import MapView

/// Why the view could not serve.
public enum ViewServerError: Error, CustomStringConvertible {
    /// The address is not an IPv4 or IPv6 address.
    case badAddress(String)
    /// Listening failed (the port is in use, or not allowed).
    case cannotListen(address: String, port: UInt16, reason: String)
    /// The page's files are missing from the installation.
    case missingPage(String)

    public var description: String {
        switch self {
        case .badAddress(let address):
            return "--address \(address) is not an IP address: give one such as 127.0.0.1 or ::1"
        case .cannotListen(let address, let port, let reason):
            return "cannot listen on \(address) port \(port): \(reason)"
        case .missingPage(let name):
            return "the view's page file \(name) is missing from the installation: rebuild adasis"
        }
    }
}

/// The page's files: `index.html`, `view.js`, `view.css`, the default style and the vendored
/// MapLibre GL JS (`maplibre-gl.js`, `maplibre-gl.css`, its licence), as built into the program.
public enum ViewPage {
    /// The files by name.
    public static func assets() throws(ViewServerError) -> [String: Data] {
        guard let folder = Bundle.module.url(forResource: "page", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { throw .missingPage("page/") }
        var result: [String: Data] = [:]
        for name in names {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
                throw .missingPage(name)
            }
            result[name] = data
        }
        for name in ["index.html", "view.js", "style.json", "maplibre-gl.js", "maplibre-gl.css"]
        where result[name] == nil {
            throw .missingPage(name)
        }
        return result
    }
}

/// The view's HTTP server: every request answered by a ``ViewSite``, one at a time (the map
/// reader is not thread-safe).
public actor ViewServer {
    private var site: ViewSite
    /// Requests answered, by status code.
    public private(set) var answered: [Int: Int] = [:]

    /// A server for `site`.
    public init(site: sending ViewSite) { self.site = site }

    func respond(_ request: HTTPRequest) -> HTTPResponse {
        let response = site.respond(method: request.method.rawValue, target: request.target.rawValue)
        answered[response.status, default: 0] += 1
        var headers = HTTPHeaders()
        headers[.contentType] = response.contentType
        headers[HTTPHeader("Cache-Control")] = "no-store"
        return HTTPResponse(
            statusCode: HTTPStatusCode(response.status, phrase: Self.phrase(response.status)), headers: headers,
            body: request.method == .HEAD ? Data() : response.body)
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }

    /// Listens on `address` (IPv4 or IPv6) and `port` (0: any free one), calls `listening` with
    /// the port once the socket is open, and serves until the task is cancelled. A request not
    /// answered within `timeout` seconds (the server's tasks starved of threads) gets a 500.
    public func serve(
        address: String, port: UInt16, timeout: Double = 30, listening: @Sendable @escaping (UInt16) -> Void
    ) async throws {
        let handler = Handler(server: self)
        let server: HTTPServer
        if address.contains(":") {
            guard let value = try? sockaddr_in6.inet6(ip6: address, port: port) else {
                throw ViewServerError.badAddress(address)
            }
            server = HTTPServer(address: value, timeout: timeout, logger: .disabled, handler: handler)
        } else {
            guard let value = try? sockaddr_in.inet(ip4: address, port: port) else {
                throw ViewServerError.badAddress(address)
            }
            server = HTTPServer(address: value, timeout: timeout, logger: .disabled, handler: handler)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do { try await server.run() } catch let SocketError.failed(type, number, message) {
                    let reason =
                        number == EADDRINUSE
                        ? "the port is in use: stop what listens there or choose another with --port"
                        : "\(type) failed: \(message)"
                    throw ViewServerError.cannotListen(address: address, port: port, reason: reason)
                }
            }
            group.addTask {
                try await server.waitUntilListening(timeout: 10)
                guard let bound = await server.listeningAddress else { return }
                switch bound {
                case .ip4(_, let port), .ip6(_, let port): listening(port)
                default: break
                }
            }
            try await group.next()
            try await group.next()
        }
    }

    struct Handler: HTTPHandler {
        let server: ViewServer
        func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse { await server.respond(request) }
    }
}

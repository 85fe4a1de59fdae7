import Foundation
import MapTiles

/// What a request to the map view asks for, parsed from its method and target.
public enum ViewRequest: Equatable, Sendable {
    /// A file of the page (`index.html`, `view.js`, the vendored MapLibre files …) by name.
    case asset(String)
    /// The MapLibre style document.
    case style
    /// A vector tile of a layer.
    case tile(layer: String, address: TileAddress)
    /// The replay's times and fixes (for the slider and the vehicle marker).
    case timeline
    /// The horizon at a replay time, seconds from the drive's start.
    case horizon(time: Double)
    /// The route, as GeoJSON.
    case route
    /// The traffic feed's flow and incidents, as GeoJSON.
    case traffic
    /// What the view shows: `{"mode": "replay"}` or `{"mode": "live", "source": …}`.
    case mode
    /// The live horizon now (live mode).
    case live
}

/// A request the view refuses: the HTTP status and the reason, for the response body.
public struct ViewRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The HTTP status code (400 bad request, 404 not found, 405 method not allowed …).
    public var status: Int
    /// What was wrong and what to ask instead.
    public var reason: String

    /// An error.
    public init(status: Int, reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status): \(reason)" }
}

extension ViewRequest {
    /// The vector tile layers served: `roads` (the road network).
    public static let tileLayers = [RoadTileLayer.name]

    /// Parses `method` and the request target `target` (path and query, as in the request line).
    ///
    /// Paths: `/` (the page), `/assets/NAME`, `/style.json`, `/tiles/LAYER/Z/X/Y.pbf` (and
    /// `/tiles/Z/X/Y.pbf` for the roads), `/timeline.json`, `/horizon.json?t=SECONDS`,
    /// `/route.geojson`, `/traffic.geojson`, `/view.json` (the mode), `/live.json` (live mode).
    public init(method: String, target: String) throws(ViewRequestError) {
        guard method == "GET" || method == "HEAD" else {
            throw ViewRequestError(
                status: 405, reason: "method \(method) is not allowed: the view answers GET and HEAD")
        }
        let (path, query) = Self.split(target)
        switch path {
        case "/", "/index.html": self = .asset("index.html")
        case "/style.json": self = .style
        case "/timeline.json": self = .timeline
        case "/route.geojson": self = .route
        case "/traffic.geojson": self = .traffic
        case "/view.json": self = .mode
        case "/live.json": self = .live
        case "/horizon.json":
            guard let text = query["t"] else {
                throw ViewRequestError(status: 400, reason: "/horizon.json needs the time: ?t=SECONDS, such as ?t=12.5")
            }
            guard let time = Double(text), time.isFinite else {
                throw ViewRequestError(
                    status: 400, reason: "t=\(text) is not a time: give seconds from the drive's start, such as t=12.5")
            }
            self = .horizon(time: time)
        default:
            if path.hasPrefix("/assets/") {
                let name = String(path.dropFirst("/assets/".count))
                guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
                    throw ViewRequestError(status: 404, reason: "no asset '\(name)'")
                }
                self = .asset(name)
            } else if path.hasPrefix("/tiles/") {
                self = try Self.tile(String(path.dropFirst("/tiles/".count)))
            } else {
                throw ViewRequestError(
                    status: 404,
                    reason:
                        "no page \(path): the view serves /, /style.json, /view.json, /tiles/LAYER/Z/X/Y.pbf, /timeline.json, /horizon.json?t=S, /live.json, /route.geojson and /traffic.geojson"
                )
            }
        }
    }

    /// `LAYER/Z/X/Y.pbf` or `Z/X/Y.pbf`.
    static func tile(_ rest: String) throws(ViewRequestError) -> ViewRequest {
        guard rest.hasSuffix(".pbf") else {
            throw ViewRequestError(
                status: 400,
                reason:
                    "'/tiles/\(rest)' is not a tile: expected /tiles/LAYER/Z/X/Y.pbf, such as /tiles/roads/14/9326/4742.pbf"
            )
        }
        var parts = rest.dropLast(4).split(separator: "/", omittingEmptySubsequences: false)
        var layer = RoadTileLayer.name
        if parts.count == 4 {
            layer = String(parts.removeFirst())
            guard tileLayers.contains(layer) else {
                throw ViewRequestError(
                    status: 404,
                    reason: "no tile layer '\(layer)': the layers are \(tileLayers.joined(separator: ", "))")
            }
        }
        do {
            return .tile(layer: layer, address: try TileAddress(parsing: Substring(parts.joined(separator: "/"))))
        } catch {
            throw ViewRequestError(status: 400, reason: error.description)
        }
    }

    /// The path (percent-decoded) and the query's `name=value` pairs.
    static func split(_ target: String) -> (path: String, query: [String: String]) {
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(pieces[0]).removingPercentEncoding ?? String(pieces[0])
        var query: [String: String] = [:]
        if pieces.count > 1 {
            for pair in pieces[1].split(separator: "&") {
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(nameValue[0]).removingPercentEncoding ?? String(nameValue[0])
                let value = nameValue.count > 1 ? String(nameValue[1]) : ""
                query[name] = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value
            }
        }
        return (path, query)
    }
}

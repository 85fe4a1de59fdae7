import Foundation
import MapTiles

/// An answer of the view: status, content type and body.
public struct ViewResponse: Equatable, Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The `Content-Type`.
    public var contentType: String
    /// The body.
    public var body: Data

    /// A response.
    public init(status: Int, contentType: String, body: Data) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// A plain-text error answer.
    public init(_ error: ViewRequestError) {
        self.init(
            status: error.status, contentType: "text/plain; charset=utf-8", body: Data((error.reason + "\n").utf8))
    }
}

/// What the view serves, and the answer to each request: the page's files, the style, the road
/// tiles, the replay's horizon by time and the route. No I/O here: the tiles come through the
/// `tiles` closure (which reads the map), everything else was loaded before.
public struct ViewSite {
    /// The page's files by name.
    public var assets: [String: Data]
    /// The MapLibre style document.
    public var style: Data
    /// The replay's horizon.
    public var timeline: ReplayTimeline
    /// The route as GeoJSON (an empty collection without a route).
    public var route: Data
    /// The traffic as GeoJSON (an empty collection without a feed).
    public var traffic: Data
    /// The encoded tile of a layer at an address; throws when the map cannot be read.
    public var tiles: (String, TileAddress) throws -> [UInt8]
    /// Live mode: where the frames come from, and the live horizon's document now (`/live.json`,
    /// from ``LiveHorizon``); `nil` on a replay.
    public var live: (source: String, document: () throws -> Data)?

    /// A site.
    public init(
        assets: [String: Data], style: Data, timeline: ReplayTimeline, route: Data,
        traffic: Data = Data(#"{"features":[],"type":"FeatureCollection"}"#.utf8),
        tiles: @escaping (String, TileAddress) throws -> [UInt8]
    ) {
        self.assets = assets
        self.style = style
        self.timeline = timeline
        self.route = route
        self.traffic = traffic
        self.tiles = tiles
        self.live = nil
    }

    /// A live site: the horizon rebuilt from the frames of `source`, `live` giving its document
    /// now; no timeline.
    public init(
        assets: [String: Data], style: Data, liveSource source: String, live: @escaping () throws -> Data,
        tiles: @escaping (String, TileAddress) throws -> [UInt8]
    ) {
        self.init(
            assets: assets, style: style, timeline: ReplayTimeline(frames: []),
            route: Data(#"{"features":[],"type":"FeatureCollection"}"#.utf8), tiles: tiles)
        self.live = (source, live)
    }

    /// The answer to `method` on `target` (path and query as in the request line). Never throws:
    /// a bad request gets a 4xx answer with the reason, a map that cannot be read a 503.
    public func respond(method: String, target: String) -> ViewResponse {
        do {
            return try answer(try ViewRequest(method: method, target: target))
        } catch {
            return ViewResponse(error)
        }
    }

    func answer(_ request: ViewRequest) throws(ViewRequestError) -> ViewResponse {
        switch request {
        case .asset(let name):
            guard let body = assets[name] else {
                throw ViewRequestError(status: 404, reason: "no asset '\(name)'")
            }
            return ViewResponse(status: 200, contentType: Self.contentType(of: name), body: body)
        case .style:
            return ViewResponse(status: 200, contentType: "application/json", body: style)
        case .route:
            return ViewResponse(status: 200, contentType: "application/geo+json", body: route)
        case .traffic:
            return ViewResponse(status: 200, contentType: "application/geo+json", body: traffic)
        case .mode:
            let mode: [String: String] = live.map { ["mode": "live", "source": $0.source] } ?? ["mode": "replay"]
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return ViewResponse(
                status: 200, contentType: "application/json", body: (try? encoder.encode(mode)) ?? Data())
        case .live:
            guard let live else {
                throw ViewRequestError(
                    status: 404,
                    reason: "/live.json is for live mode (adasis view --can or --candump); this is a replay")
            }
            do {
                return ViewResponse(status: 200, contentType: "application/json", body: try live.document())
            } catch {
                throw ViewRequestError(status: 500, reason: "cannot encode the live horizon: \(error)")
            }
        case .timeline:
            if let live {
                throw ViewRequestError(
                    status: 404, reason: "live mode (\(live.source)) has no timeline: the horizon now is at /live.json")
            }
            do {
                return ViewResponse(status: 200, contentType: "application/json", body: try timeline.summary())
            } catch {
                throw ViewRequestError(status: 500, reason: "cannot encode the timeline: \(error)")
            }
        case .horizon(let time):
            if let live {
                throw ViewRequestError(
                    status: 404,
                    reason: "live mode (\(live.source)) has no replay time: the horizon now is at /live.json")
            }
            guard let frame = timeline.frame(at: time) else {
                let end = timeline.frames.last.map { String(format: "%.1f", $0.time) } ?? "0"
                throw ViewRequestError(
                    status: 404, reason: "t=\(time) is after the drive's end: the replay runs to \(end) s")
            }
            return ViewResponse(status: 200, contentType: "application/json", body: frame.document)
        case .tile(let layer, let address):
            do {
                return ViewResponse(
                    status: 200, contentType: "application/vnd.mapbox-vector-tile",
                    body: Data(try tiles(layer, address)))
            } catch {
                throw ViewRequestError(status: 503, reason: "cannot read the map for tile \(address): \(error)")
            }
        }
    }

    /// The content type of an asset by its extension.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "png": "image/png"
        case "txt", "md": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}

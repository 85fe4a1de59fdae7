import ArgumentParser
import Dispatch
import Routing
import Foundation
import Horizon
import HorizonPicture
import MapView
import RoadMapStore
import Traffic
import ViewServer

/// `adasis view --map MAP --replay TRACE [--route R] [--objects …] [--port N] [--address A]`, or live:
/// `adasis view --map MAP --can vcan0` / `--candump LOG [--speed X]`.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Serve a live map of the horizon along a recorded drive, for a web browser (MapLibre GL JS).",
        discussion: """
            Runs the drive through matching and the horizon engine as `adasis horizon` does, then \
            serves a page on http://ADDRESS:PORT/ (the loopback address by default): the map's roads as \
            vector tiles, the horizon at the replay time (main path, side paths by level, trailing \
            part, fix and matched position, road objects with the filtered safety locations marked, \
            the route), a time slider with play/pause and speed, and a panel with the fix, the state \
            and what lies ahead. Each layer set can be switched off; --style loads another MapLibre \
            style. Prints the address once listening; stops on Ctrl-C.

            Live mode, as an ECU sees the bus: --can IFACE reads the ADASIS v2 frames of a CAN \
            interface (default identifiers) through the reconstructor, and the page shows the \
            rebuilt horizon as it changes: the vehicle at the last POSITION, the main path and the \
            side paths placed by their shape points (PROFILE LONG longitude/latitude, sent with the \
            sender's preset all; without them the tree is listed in the panel only), the link \
            identifiers as OSM way ids, cameras and road objects, the last frames decoded and the \
            bus load. An interface that goes down or away is shown as "no frames since …" and read \
            again when it is back. --candump LOG plays a candump -L log through the same path at \
            its own pace (--speed to play it faster).
            """)

    @Option(help: "The map file (from `adasis map import`).")
    var map: String

    @Option(help: "The recorded drive: .csv (time_s,lat,lon,speed_mps,heading_deg), .nmea or .gpx.")
    var replay: String?

    @Option(help: "Live: read the ADASIS v2 frames of this CAN interface (such as vcan0) and show the rebuilt horizon.")
    var can: String?

    @Option(help: "Live: play this candump -L log through the reconstructor at its own pace.")
    var candump: String?

    @Option(help: "With --candump: play the log at this multiple of its own pace (such as 10).")
    var speed: Double = 1

    @Option(help: "An active route: a file of links as adasis route prints them (L123+ per line).")
    var route: String?

    @Option(
        help:
            "Plan a route to this point (LAT,LON) from the drive's start, replanned as the drive goes (as adasis horizon --destination)."
    )
    var destination: Coordinate?

    @Option(
        help:
            "With --route or --destination: how a better route found by replanning is taken: automatic (it replaces the route) or manual (drawn as a proposal until the driver steers onto it or stays on the route)."
    )
    var acceptance: ProposalAcceptance = .automatic

    @Option(
        help: "With --route or --destination: seconds between looks for a better route (default 300, as adasis run).")
    var replanInterval: Double = 300

    @Option(
        help:
            "With --route or --destination: seconds a new route must save to count as better (default 300, as adasis run)."
    )
    var minTimeDifference: Double = 300

    @Option(help: "Road object types to compute, comma-separated (default: all; as adasis horizon --objects).")
    var objects: String?

    @Option(help: "The legal filter for safety locations (default: Data/safety-location-rules.toml as shipped).")
    var safetyRules: String?

    @Option(help: "A traffic feed (JSON, Docs/traffic-feed.md) to show: flow in the four display modes and incidents.")
    var traffic: String?

    @Option(help: "The time to apply the traffic feed at, ISO 8601 (default: the feed's generatedAt).")
    var trafficAt: String?

    @Option(help: "A MapLibre style document (JSON) to use instead of the built-in one.")
    var style: String?

    @Option(help: "The address to listen on (default: loopback only).")
    var address = "127.0.0.1"

    @Option(help: "The TCP port (0: any free port, printed when listening).")
    var port: UInt16 = 8080

    func validate() throws {
        let sources = [replay, can, candump].compactMap { $0 }
        guard sources.count == 1 else {
            throw ValidationError(
                "give one of --replay TRACE (a recorded drive), --can IFACE or --candump LOG (live), not \(sources.count)"
            )
        }
        guard replanInterval > 0, replanInterval.isFinite, minTimeDifference >= 0, minTimeDifference.isFinite else {
            throw ValidationError(
                "--replan-interval must be a positive number of seconds (such as 300), --min-time-difference zero or more"
            )
        }
        guard speed > 0, speed.isFinite else {
            throw ValidationError("--speed must be a positive multiple, such as 1 or 10")
        }
        if can != nil || candump != nil {
            for (name, value) in [
                ("--route", route), ("--traffic", traffic), ("--objects", objects),
                ("--destination", destination.map { "\($0)" }),
            ] where value != nil {
                throw ValidationError(
                    "\(name) is for a replay: in live mode the horizon comes from the frames (the sender's route and objects)"
                )
            }
        }
    }

    func run() throws {
        guard let replay else { return try runLive() }
        do {
            var arguments = ["--map", map, replay]
            if let route { arguments += ["--route", route] }
            if let destination {
                arguments += ["--destination", "\(destination.point.latitude),\(destination.point.longitude)"]
            }
            if let traffic, route != nil || destination != nil {
                // The feed also costs the route: its planning, replanning and proposals see the traffic.
                arguments += ["--traffic", traffic, "--traffic-time", try Self.feedTime(traffic, at: trafficAt)]
            }
            if let objects { arguments += ["--objects", objects] }
            if let safetyRules { arguments += ["--safety-rules", safetyRules] }
            let drive: DriveOptions
            do { drive = try DriveOptions.parse(arguments) } catch {
                throw ValidationError(DriveOptions.message(for: error))
            }
            var assets = try ViewPage.assets()
            let styleDocument = try style.map(Self.readStyle) ?? assets["style.json"]!
            assets["style.json"] = styleDocument
            var session = try drive.open()
            session.routes?.configuration.acceptance = acceptance
            session.routes?.configuration.replanInterval = replanInterval
            session.routes?.configuration.minTimeDifference = minTimeDifference
            let trafficDocument = try traffic.map { try Self.readTraffic($0, at: trafficAt, network: session.map) }
            let (timeline, routes) = try ViewTimeline.make(session: &session)
            guard !timeline.frames.isEmpty else {
                printToStandardError("adasis view: the drive \(replay) has no fix to show")
                throw ExitCode.failure
            }
            let tiles = try MapTileReader(path: map)
            let site = ViewSite(
                assets: assets, style: styleDocument, timeline: timeline,
                route: routes,
                traffic: try trafficDocument ?? GeoJSONFeatureCollection(features: []).encoded(),
                tiles: { _, address in try tiles.tile(address) })
            let span =
                "\(timeline.frames.count) fixes, \(String(format: "%.1f", timeline.frames.first!.time)) to \(String(format: "%.1f", timeline.frames.last!.time)) s"
            try Self.serve(ViewServer(site: site), address: address, port: port, what: span)
        } catch let error as ExitCode {
            throw error
        } catch {
            printToStandardError("adasis view: \(error)")
            throw ExitCode.failure
        }
    }

    /// A style file, checked to be a MapLibre style (version 8, with sources and layers).
    static func readStyle(_ path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--style: cannot read \(path)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ValidationError("--style: \(path) is not a JSON object (a MapLibre style document)")
        }
        guard object["version"] as? Int == 8, object["sources"] is [String: Any], object["layers"] is [Any] else {
            throw ValidationError(
                "--style: \(path) is not a MapLibre style: it needs \"version\": 8, \"sources\" and \"layers\"")
        }
        return data
    }

    /// The time to apply the feed at `path` at: `at` (ISO 8601), or the feed's own `generatedAt`.
    static func feedTime(_ path: String, at: String?) throws -> String {
        if let at {
            guard ISO8601DateFormatter().date(from: at) != nil else {
                throw ValidationError("--traffic-at \(at) is not an ISO 8601 time such as 2026-11-25T12:00:00Z")
            }
            return at
        }
        // Read leniently here; the feed's parser checks the rest.
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--traffic: cannot read \(path)")
        }
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard let text = object?["generatedAt"] as? String, ISO8601DateFormatter().date(from: text) != nil else {
            throw ValidationError("--traffic: \(path) has no generatedAt time; give --traffic-at")
        }
        return text
    }

    /// The feed at `path` placed on `network` at `at` (ISO 8601), or at its own `generatedAt`.
    static func readTraffic(_ path: String, at: String?, network: MapFile) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--traffic: cannot read \(path)")
        }
        guard let time = ISO8601DateFormatter().date(from: try feedTime(path, at: at)) else {
            throw ValidationError("--traffic-at \(at ?? "") is not an ISO 8601 time such as 2026-11-25T12:00:00Z")
        }
        do {
            let feed = try TrafficFeedParser.parse(data, now: time)
            let layer = TrafficLayer(feed: feed, network: network)
            if !layer.skipped.isEmpty {
                printToStandardError("traffic \(path): \(layer.skipped.count) records not shown: \(layer.skipped)")
            }
            return try TrafficFeatures.collection(layer, at: time, network: network).encoded()
        } catch let error as TrafficFeedError {
            throw ValidationError("--traffic: \(path): \(error)")
        }
    }

    /// Serves until interrupted; a listening failure ends the command with its reason.
    static func serve(_ server: ViewServer, address: String, port: UInt16, what: String) throws {
        let failure = FailureBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.serve(address: address, port: port) { bound in
                    let host = address.contains(":") ? "[\(address)]" : address
                    let line =
                        "adasis view: serving http://\(host):\(bound)/ (\(what))\n"
                    FileHandle.standardOutput.write(Data(line.utf8))
                }
            } catch {
                failure.set("\(error)")
            }
            done.signal()
        }
        done.wait()
        if let message = failure.message { throw ValidationError(message) }
    }
}

/// The server task's error, handed to the waiting command.
private final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    var message: String? { lock.withLock { value } }
    func set(_ message: String) { lock.withLock { value = message } }
}

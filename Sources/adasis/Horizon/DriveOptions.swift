import ADASISProvider
import ArgumentParser
import DaemonConfiguration
import Foundation
import GNSS
import Horizon
import HorizonDaemon
import InputPolicy
import RoadMap
import Routing
import RoadMapStore
import Traffic

/// Options shared by the commands that run a recorded drive through the map.
struct DriveOptions: ParsableArguments {
    @Option(help: "The map file (from `adasis map import`).")
    var map: String

    @Argument(help: "The recorded drive: .csv (time_s,lat,lon,speed_mps,heading_deg), .nmea or .gpx.")
    var trace: String

    @Flag(help: "Use the baseline instead of the product: nearest road, straightest continuation.")
    var baseline = false

    @Option(
        help:
            "An active route: a file of links as adasis match or adasis route prints them (L123+ per line), or an adasis match CSV of a previous drive (a link it was matched to only briefly is left out where keeping it would make the route drive round a block or turn round). The main path follows it while the vehicle stays on it."
    )
    var route: String?

    @Option(
        help:
            "Plan the fastest route from the drive's first fix to this point (LAT,LON) and follow it, as adasis route plans it; replanned when the vehicle leaves it. Not with --route."
    )
    var destination: Coordinate?

    @Option(
        help:
            "When the vehicle leaves the route: automatic (plan a new one from where it is; the default with --destination) or none (keep the route and fall back to prediction; the default with --route)."
    )
    var deviationReplanning: RouteSessionConfiguration.DeviationReplanning?

    @Flag(
        inversion: .prefixedNo,
        help:
            "Fuse each fix with dead reckoning from the fixes before it (the distance their speeds say, in the direction their courses say) and match the fused position (the default). --no-dead-reckoning matches the fixes as they are. Needs speed and course in the trace; a fix without them is matched as it is."
    )
    var deadReckoning: Bool?

    @Flag(
        help:
            "Estimate the receiver's slowly varying error (metres that stay for minutes: a receiver without corrections) from where matched fixes lie beside their roads, and take it off the next fixes. Off by default: it gains where the error wanders and stays, and changes nothing on independent noise (README, \"Way correct under a receiver's wandering error\")."
    )
    var receiverBias = false

    @Flag(
        inversion: .prefixedNo,
        help:
            "Estimate how late the trace's speeds are (a receiver that filters its velocity, a wheel speed stamped when it arrives over CAN) from how dead reckoning misses the fixes while the vehicle speeds up and slows down, and take each fix's speed at its own time. Needs dead reckoning (README, \"Way correct when the speeds come late\")."
    )
    var speedLatency: Bool?

    @Option(
        help: ArgumentParser.ArgumentHelp(
            "How late the trace's speeds are, when that is known (-1…2 s; what --speed-latency printed for an earlier drive, or a CAN signal's documented latency): each speed is taken at its fix's time by it from the first fix on, and nothing is learnt.",
            valueName: "seconds"))
    var knownSpeedLatency: Double?

    @Flag(
        help:
            "Refuse the drive at its first bad record (a malformed sentence or row, a time that goes back), naming its line. Without it, bad records are skipped and counted, and a receiver reset restarts matching."
    )
    var strict = false

    @Option(
        help:
            "The legal filter for safety locations: a TOML table as Data/safety-location-rules.toml documents (rows per country, region and type, each with its legal source). Default: that shipped table."
    )
    var safetyRules: String?

    @Option(
        help: """
            Road object types to compute and send, comma-separated: \(RoadObjectType.allCases.map(\.rawValue).joined(separator: ", ")) \
            (default: all).
            """,
        transform: { text in
            do { return try RoadObjectType.parseList(text) } catch { throw ValidationError("\(error)") }
        })
    var objects: Set<RoadObjectType>?

    @OptionGroup var traffic: TrafficOptions

    func validate() throws {
        let forTheProduct = [
            ("--receiver-bias", receiverBias), ("--speed-latency", speedLatency == true),
            ("--known-speed-latency", knownSpeedLatency != nil),
        ]
        if baseline, let (flag, _) = forTheProduct.first(where: { $0.1 }) {
            throw ValidationError(
                "\(flag) is for the product's matcher; the --baseline matcher takes fixes as they are")
        }
        if let knownSpeedLatency {
            let latencies = MatcherConfiguration.speedLatencyRange
            guard knownSpeedLatency.isFinite, latencies.contains(knownSpeedLatency) else {
                throw ValidationError(
                    "--known-speed-latency \(knownSpeedLatency): give seconds from \(Int(latencies.lowerBound)) to \(Int(latencies.upperBound))"
                )
            }
            if speedLatency == true {
                throw ValidationError(
                    "give either --speed-latency (learn it) or --known-speed-latency (a latency you know), not both")
            }
        }
        if deadReckoning == false && speedLatency == true {
            throw ValidationError(
                "--speed-latency is learnt from dead reckoning: leave out --no-dead-reckoning, or --speed-latency")
        }
        if baseline && deadReckoning == true {
            throw ValidationError(
                "--dead-reckoning fuses fixes for the product's matcher; the --baseline matcher takes them as they are")
        }
        if route != nil && destination != nil {
            throw ValidationError("give either --route (a planned route) or --destination (plan one), not both")
        }
    }

    /// The route session for `--route` or `--destination`, with its route active, or `nil`.
    /// A `--route` file is connected on `map` first (gaps between listed links closed by the
    /// shortest legal connection; links that cannot be reached, and links of a previous drive's
    /// match a much shorter route passes by, are left out and reported); a
    /// destination is planned from the trace's first fix.
    func routeSession(on map: MapFile, trace: TraceFile, traffic: RouteTraffic = RouteTraffic()) throws
        -> RouteSession?
    {
        guard route != nil || destination != nil else { return nil }
        var configuration = RouteSessionConfiguration()
        configuration.deviationReplanning = deviationReplanning ?? (destination != nil ? .automatic : .none)
        var session = RouteSession(
            planner: RoutePlanner(network: map, traffic: traffic), configuration: configuration)
        if let destination {
            guard let first = trace.fixes.first else {
                throw RouteError(message: "--destination: the trace has no fix to start the route from")
            }
            let start = GeoPoint(latitude: first.latitude, longitude: first.longitude)
            let events = try session.setDestination(destination.point, from: .point(start), time: first.time)
            RouteReport.print(events, session: session, time: first.time)
            return session
        }
        guard let route else { return nil }
        let text: String
        do { text = try String(contentsOfFile: route, encoding: .utf8) } catch {
            throw RouteError(message: "cannot read route \(route): \(error.localizedDescription)")
        }
        let (links, skipped) = try RoutePlanning.connect(
            try RoutePlanning.parse(text), in: map, skippingUnreachable: true)
        if skipped > 0 {
            printToStandardError(
                "route \(route): \(skipped == 1 ? "1 link was" : "\(skipped) links were") left out (not reachable from the route before them, or matched where a shorter route passes by)"
            )
        }
        _ = session.importRoute(links, time: trace.fixes.first?.time ?? 0)
        return session
    }

    /// The branch model of the baseline: every continuation weighed by its angle alone.
    static let baselineBranchModel = BranchProbabilityModel(
        classStepFactor: 1, rampEntryFactor: 1,
        nameContinuityFactor: 1, laneStepFactor: 0)

    /// Opens the map and the drive, and chooses the matcher and the branch model (product or
    /// baseline) on top of `horizon`.
    func open(horizon: HorizonConfiguration = HorizonConfiguration()) throws -> DriveSession {
        let map = try MapFile(path: self.map)
        let trace = try TraceFile(path: trace, policy: strict ? .strict : .skip)
        if !trace.skipped.isEmpty {
            printToStandardError("trace \(self.trace): \(trace.fixes.count) fixes used, bad records \(trace.skipped)")
        }
        for reset in trace.resets { printToStandardError("trace \(self.trace): \(reset)") }
        var matching = MatcherConfiguration()
        if let deadReckoning { matching.fusesDeadReckoning = deadReckoning }
        if receiverBias { matching.estimatesReceiverBias = true }
        if let speedLatency { matching.estimatesSpeedLatency = speedLatency }
        matching.knownSpeedLatency = knownSpeedLatency
        let matcher: any MapMatcher =
            baseline ? NearestRoadMatcher(network: map) : OnlineMapMatcher(network: map, configuration: matching)
        var configuration = horizon
        if let objects { configuration.roadObjectTypes = objects }
        if baseline { configuration.branchModel = Self.baselineBranchModel }
        configuration.safetyLocationRules = try safetyLocationRules()
        configuration.places = PlaceCodes(map: map.metadata)
        var network = try customObjects(on: map)
        var routeTraffic = RouteTraffic()
        var overTime: TrafficOverTime?
        var trafficSpeeds: TrafficSpeedTable?
        if traffic.traffic != nil {
            let start = try traffic.startTime(of: trace, path: self.trace)
            if let layer = try traffic.layer(on: map, at: start) {
                routeTraffic = layer.routeTraffic(at: start, network: map)
                // The incidents in force follow the drive's time (TrafficOverTime, DriveSession.follow).
                let following = TrafficOverTime(
                    base: network, layer: layer, traceTime: trace.fixes.first?.time ?? 0, date: start)
                network = following
                overTime = following
                trafficSpeeds = TrafficSpeedTable(layer.linkSpeeds(at: start))
            }
        }
        let routes = try routeSession(on: map, trace: trace, traffic: routeTraffic)
        var session = DriveSession(
            map: map, trace: trace, matcher: routes == nil ? matcher : RouteSnappingMatcher(matcher, routes: routes),
            horizon: configuration, routes: routes, network: network)
        session.traffic = overTime
        session.trafficSpeeds = trafficSpeeds
        return session
    }

    /// The rules of `--safety-rules`, or the shipped table.
    func safetyLocationRules() throws -> SafetyLocationRules {
        try SafetyLocationRulesOption.load(safetyRules)
    }

    /// `map` with the objects of `MAP.objects` laid over it, or `map` when there is no such file.
    func customObjects(on map: MapFile) throws -> any RoadNetwork {
        let path = CustomObjectStore.path(forMap: self.map)
        guard FileManager.default.fileExists(atPath: path) else { return map }
        let stored = try CustomObjectStore(path: path, create: false).objects()
        guard !stored.isEmpty else { return map }
        return CustomObjectOverlay(
            base: map,
            objects: stored.map { PlacedCustomObject(number: $0.number, id: $0.object.id, pieces: $0.pieces) })
    }
}

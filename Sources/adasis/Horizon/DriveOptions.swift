import ArgumentParser
import GNSS
import Horizon
import RoadMap
import RoadMapStore

/// Options shared by the commands that run a recorded drive through the map.
struct DriveOptions: ParsableArguments {
    @Option(help: "The map file (from `adasis map import`).")
    var map: String

    @Argument(help: "The recorded drive: .csv (time_s,lat,lon,speed_mps,heading_deg), .nmea or .gpx.")
    var trace: String

    @Flag(help: "Use the baseline instead of the product: nearest road, straightest continuation.")
    var baseline = false

    @Option(help: "An active route: a file of links as adasis match prints them (L123+ per line), or an adasis match CSV of a previous drive. The main path follows it while the vehicle stays on it.")
    var route: String?

    /// The route, connected on `map` (gaps between listed links closed by the shortest legal
    /// connection; links that cannot be reached are left out and reported).
    func activeRoute(on map: MapFile) throws -> [DirectedLink]? {
        guard let route else { return nil }
        let text: String
        do { text = try String(contentsOfFile: route, encoding: .utf8) } catch {
            throw RouteError(message: "cannot read route \(route): \(error.localizedDescription)")
        }
        let (links, skipped) = try RoutePlanning.connect(try RoutePlanning.parse(text), in: map, skippingUnreachable: true)
        if skipped > 0 { printToStandardError("route \(route): \(skipped) links could not be reached from the route before them and were left out") }
        return links
    }

    /// The map, the trace's fixes, a matcher and a horizon engine.
    func open(horizon: HorizonConfiguration = HorizonConfiguration()) throws -> (MapFile, TraceFile, any MapMatcher, HorizonEngine) {
        let map = try MapFile(path: self.map)
        let trace = try TraceFile(path: trace)
        let matcher: any MapMatcher = baseline ? NearestRoadMatcher(network: map) : OnlineMapMatcher(network: map)
        var configuration = horizon
        if baseline {
            configuration.branchModel = BranchProbabilityModel(classStepFactor: 1, rampEntryFactor: 1,
                                                               nameContinuityFactor: 1, laneStepFactor: 0)
        }
        let engine = try HorizonEngine(network: map, configuration: configuration)
        try engine.setRoute(try activeRoute(on: map))
        return (map, trace, matcher, engine)
    }
}

import ArgumentParser
import GNSS
import Horizon
import RoadMap

/// Options shared by the commands that run a recorded drive through the map.
struct DriveOptions: ParsableArguments {
    @Option(help: "The map file (from `adasis map import`).")
    var map: String

    @Argument(help: "The recorded drive: .csv (time_s,lat,lon,speed_mps,heading_deg), .nmea or .gpx.")
    var trace: String

    @Flag(help: "Use the baseline instead of the product: nearest road, straightest continuation.")
    var baseline = false

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
        return (map, trace, matcher, try HorizonEngine(network: map, configuration: configuration))
    }
}

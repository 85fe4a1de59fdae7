import GNSS
import Horizon
import RoadMap

/// A recorded drive opened on its map, ready to run: what `DriveOptions.open(horizon:)` read and
/// chose, with the product or the baseline applied to both the matcher and the horizon settings.
struct DriveSession {
    /// The map.
    let map: MapFile
    /// The recorded drive.
    var trace: TraceFile
    /// The map matcher (the nearest-road baseline with `--baseline`).
    let matcher: any MapMatcher
    /// The horizon engine's settings (the straightest-continuation branch model with `--baseline`).
    let horizon: HorizonConfiguration
    /// The active route connected on the map (`--route`), read once; `nil` without a route.
    let route: [DirectedLink]?

    /// A horizon engine on the map with the session's settings and route.
    func makeEngine() throws -> HorizonEngine {
        let engine = try HorizonEngine(network: map, configuration: horizon)
        try engine.setRoute(route)
        return engine
    }
}

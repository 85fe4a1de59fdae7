import ArgumentParser
import Foundation
import RoadMap
import RoadMapStore
import Routing
import Traffic

/// `adasis route --map MAP --from LAT,LON --to LAT,LON [--via LAT,LON …] [--geojson]`.
struct RouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Plan the fastest legal route on the map, as --route reads it.",
        discussion: """
            Places each point on the nearest drivable road (within 200 m), then finds the fastest \
            route through them in order: one-way streets, turn restrictions and access as the map \
            has them; travel time from the speed limit (or the road class), plus penalties for \
            turns and traffic signals (Docs/routing-model.md).

            Prints `#` lines with the length, the travel time and each leg, then one directed link \
            per line (L123+), the format `adasis horizon --route` and `adasis replay --route` read:
              adasis route --map helsinki.map --from 60.1699,24.9384 --to 60.1760,24.9500 > trip.route
              adasis replay --map helsinki.map drive.nmea --route trip.route --candump out.log
            With --geojson: the route's shape, length, duration and links, and the placed points, \
            as GeoJSON for any GIS viewer.

            With --traffic FEED (Docs/traffic-feed.md) the travel times add the feed's delays at \
            --traffic-time (default: now) and closed roads are not entered; a route that only a \
            closure blocks is refused with a message saying so.
            """)

    @Option(help: "The map file (from `adasis map import`).")
    var map: String

    @Option(help: "Where the route starts: LAT,LON in decimal degrees.")
    var from: Coordinate

    @Option(help: "Where the route ends: LAT,LON in decimal degrees.")
    var to: Coordinate

    @Option(help: "A point to pass on the way, LAT,LON; repeat for more, visited in the order given.")
    var via: [Coordinate] = []

    @OptionGroup var traffic: TrafficOptions

    @Flag(help: "Print GeoJSON instead of the link list.")
    var geojson = false

    @Option(name: [.short, .customLong("output")], help: "Write to this file (atomically) instead of standard output.")
    var output: String?

    func run() throws {
        do {
            let network = try MapFile(path: map)
            var planner = RoutePlanner(network: network)
            let time = try traffic.givenTime() ?? Date()
            if let layer = try traffic.layer(on: network, at: time) {
                planner.traffic = layer.routeTraffic(at: time, network: network)
            }
            let route: PlannedRoute
            do {
                route = try planner.plan(from: from.point, to: to.point, via: via.map(\.point))
            } catch RoutingError.unreachable(let leg, let start, let end) where !planner.traffic.closed.isEmpty {
                let closed = planner.traffic.closed.count
                planner.traffic = RouteTraffic()
                guard (try? planner.plan(from: from.point, to: to.point, via: via.map(\.point))) != nil else {
                    throw RoutingError.unreachable(leg: leg, from: start, to: end)
                }
                throw TrafficOptionError(
                    message:
                        "leg \(leg): no route from \(start.latitude),\(start.longitude) to \(end.latitude),\(end.longitude) while the traffic feed closes \(closed) directed links: every way there is closed (without the feed there is one)"
                )
            }
            let text = geojson ? try route.geoJSON(in: network) : route.routeText
            if let output {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        } catch {
            printToStandardError("adasis route: \(error)")
            throw ExitCode.failure
        }
    }
}

import ArgumentParser
import Foundation
import GNSS
import Horizon
import RoadMap
import RoadMapStore

/// `adasis match --map MAP TRACE`.
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Match a recorded drive to the map, one CSV row per fix.",
        discussion: """
            Prints `time_s,state,way_id,link_id,offset_m,lat,lon`: seconds from the first fix, \
            on_road / off_road / unknown, the OSM way and map link the fix was matched to (empty \
            when not on a road), metres along the link in the driving direction, and the matched \
            point. The matcher is causal: each row uses only the fixes up to it.
            """)

    @OptionGroup var drive: DriveOptions

    func validate() throws {
        if drive.route != nil {
            throw ValidationError(
                "--route applies to horizon and replay: match reports where the vehicle is, not the road ahead")
        }
    }

    func run() throws {
        do {
            let session = try drive.open()
            var output = "time_s,state,way_id,link_id,offset_m,lat,lon\n"
            for (index, fix) in session.trace.fixes.enumerated() {
                if session.trace.startsAfterReset(index) { session.matcher.reset() }
                let result = try session.matcher.match(fix)
                output += MatchCommand.row(result, map: session.map)
                if output.utf8.count > 1 << 16 { FileHandle.standardOutput.write(Data(output.utf8)); output = "" }
            }
            FileHandle.standardOutput.write(Data(output.utf8))
        } catch {
            printToStandardError("adasis match: \(error)")
            throw ExitCode.failure
        }
    }

    static func row(_ result: MatchResult, map: MapFile) -> String {
        let time = String(format: "%.1f", result.time)
        switch result.state {
        case .onRoad(let position):
            let way = (try? map.link(position.link.link).wayID).map(String.init) ?? ""
            return "\(time),on_road,\(way),\(position.link),\(String(format: "%.1f", position.offset)),"
                + "\(String(format: "%.7f", position.point.latitude)),\(String(format: "%.7f", position.point.longitude))\n"
        case .offRoad(let point):
            return
                "\(time),off_road,,,,\(String(format: "%.7f", point.latitude)),\(String(format: "%.7f", point.longitude))\n"
        case .unknown:
            return "\(time),unknown,,,,,\n"
        }
    }
}

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
            point. The matcher is causal: each row uses only the fixes up to it; with `--lag N` each row \
            also uses the N fixes after it (fixed-lag smoothing, for recordings and evaluation).
            """)

    @OptionGroup var drive: DriveOptions

    @Option(
        help: ArgumentParser.ArgumentHelp(
            "Fixed-lag smoothing: decide each fix's match after the N fixes that follow it (0 = causal, the product's matcher; 1–3 for recordings and evaluation).",
            valueName: "N"))
    var lag = 0

    func validate() throws {
        if !(0...10).contains(lag) { throw ValidationError("--lag must be 0…10 fixes, got \(lag)") }
        if lag > 0, drive.baseline {
            throw ValidationError("--lag smooths the HMM matcher's best path: the nearest-road baseline has none")
        }
        if drive.route != nil {
            throw ValidationError(
                "--route applies to horizon and replay: match reports where the vehicle is, not the road ahead")
        }
    }

    func run() throws {
        do {
            let session = try drive.open()
            var output = "time_s,state,way_id,link_id,offset_m,lat,lon\n"
            let smoother = (session.matcher as? OnlineMapMatcher).flatMap {
                lag > 0 ? FixedLagMatcher(matcher: $0, lag: lag) : nil
            }
            for (index, fix) in session.trace.fixes.enumerated() {
                var results: [MatchResult]
                if let smoother {
                    results = session.trace.startsAfterReset(index) ? smoother.reset() : []
                    results += try smoother.match(fix)
                } else {
                    if session.trace.startsAfterReset(index) { session.matcher.reset() }
                    results = [try session.matcher.match(fix)]
                }
                for result in results { output += MatchCommand.row(result, map: session.map) }
                if output.utf8.count > 1 << 16 { FileHandle.standardOutput.write(Data(output.utf8)); output = "" }
            }
            for result in smoother?.finish() ?? [] { output += MatchCommand.row(result, map: session.map) }
            FileHandle.standardOutput.write(Data(output.utf8))
            if let latency = (session.matcher as? OnlineMapMatcher)?.speedLatency, drive.knownSpeedLatency == nil {
                printToStandardError(
                    String(
                        format: "adasis match: the trace's speeds come %.2f s late by the estimate (%.2f s taken off)",
                        latency.estimate, latency.applied))
            }
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

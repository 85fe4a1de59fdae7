import ArgumentParser
import Foundation
import GNSS
import RoadMap
import Traffic

/// `--traffic FEED` and the time it is applied at, for the commands that route or drive.
struct TrafficOptions: ParsableArguments {
    @Option(
        help:
            "A traffic feed (JSON, or DATEX II situation records as XML; Docs/traffic-feed.md): travel times use its speeds and delays, closed roads are not entered, and incidents and congestion ahead become road objects."
    )
    var traffic: String?

    @Option(
        help:
            "The time the drive starts (ISO 8601, e.g. 2026-11-25T12:00:00Z), to check the feed's validity against. Default: the trace's own date (NMEA, GPX); a CSV trace has none and needs it. For adasis route: the time of the route (default: now)."
    )
    var trafficTime: String?

    /// The time of `--traffic-time`, or `nil` without it.
    func givenTime() throws -> Date? {
        guard let trafficTime else { return nil }
        guard let date = ISO8601DateFormatter().date(from: trafficTime) else {
            throw ValidationError("--traffic-time \(trafficTime) is not an ISO 8601 time such as 2026-11-25T12:00:00Z")
        }
        return date
    }

    /// The time a drive of `trace` (read from `path`) starts at: `--traffic-time`, else the
    /// trace's own date; a CSV trace without `--traffic-time` is an error.
    func startTime(of trace: TraceFile, path: String) throws -> Date {
        if let given = try givenTime() { return given }
        guard !path.lowercased().hasSuffix(".csv") else {
            throw ValidationError(
                "--traffic: the CSV trace \(path) has times but no date; give the drive's start with --traffic-time 2026-11-25T12:00:00Z"
            )
        }
        return Date(timeIntervalSince1970: trace.timeOrigin)
    }

    /// The feed of `--traffic` placed on `network`, checked against `time`; `nil` without it.
    /// Records that could not be used are reported on standard error.
    func layer(on network: any RoadNetwork, at time: Date) throws -> TrafficLayer? {
        guard let traffic else { return nil }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: traffic)) } catch {
            throw TrafficOptionError(message: "cannot read the traffic feed \(traffic): \(error.localizedDescription)")
        }
        let feed: TrafficFeed
        do { feed = try TrafficFeedParser.parse(data, now: time) } catch {
            throw TrafficOptionError(message: "traffic feed \(traffic): \(error)")
        }
        let layer = TrafficLayer(feed: feed, network: network)
        for record in layer.skipped { printToStandardError("traffic feed \(traffic): \(record), left out") }
        printToStandardError(
            "traffic feed \(traffic): \(layer.flow.count) links with flow, \(layer.incidents(at: time).count) incidents in force, \(layer.congestion.count) congested stretches; valid until \(ISO8601DateFormatter().string(from: layer.validUntil))"
        )
        return layer
    }
}

/// A traffic feed that cannot be used, in one sentence.
struct TrafficOptionError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

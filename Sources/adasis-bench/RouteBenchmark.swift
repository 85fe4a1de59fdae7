import ArgumentParser
import Foundation
import GNSSSources
import RoadMap
import RoadMapStore
import Routing

/// `adasis-bench route`: route query latency on origin–destination pairs, and each route's
/// length, duration and shape for a comparison with another router (`Tools/bench-route`).
struct RouteBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Route query time (p50/p99/max) on origin–destination pairs; routes to JSON for comparison.",
        discussion: """
            Pairs: --pairs N random pairs (seeded, the same on every run): each point is a \
            uniformly random position on the map's drivable road length, the two at least \
            --min-distance metres apart in a straight line. Or --pairs-file with one pair per line, \
            from_lat,from_lon,to_lat,to_lon (a header line is skipped).

            Each pair is planned once untimed (its route, and a warm tile cache), then \
            --repetitions timed passes go over all pairs in order. A query is \
            RoutePlanner.plan(from:to:): placing both points on the nearest road and the search; \
            p50/p99/max are over every timed query. Pairs that cannot be routed are counted and \
            listed, not timed.

            --output writes JSON for the comparison: {"map", "seed", "min_distance_m", "repetitions", "pairs": [{ \
            "index", "from": [lat, lon], "to": [lat, lon], "ok", "error", "length_m", "duration_s", \
            "driving_s", "signals_s", "turns_s", "signal_count", "turn_count" (where the duration goes), \
            "query_ms": [one per repetition], "shape": [[lat, lon], …] (PlannedRoute.shape)}]}.

              adasis map import Data/helsinki.osm.pbf -o /tmp/helsinki.map --country FI
              adasis-bench route --map /tmp/helsinki.map -o /tmp/routes.json
              Tools/bench-route   # and the same pairs through Valhalla: one table
            """)

    @Option(help: "The map file (from `adasis map import`).")
    var map: String

    @Option(help: "Random origin–destination pairs to place on the map.")
    var pairs: Int = 200

    @Option(help: "Seed of the pair generator (same seed, same pairs).")
    var seed: UInt64 = 42

    @Option(help: "Least straight-line distance between origin and destination, metres.")
    var minDistance: Double = 500

    @Option(help: "CSV of pairs (from_lat,from_lon,to_lat,to_lon) instead of random ones.")
    var pairsFile: String?

    @Option(help: "Timed passes over all pairs (samples per pair).")
    var repetitions: Int = 5

    @Option(
        name: [.short, .customLong("output")],
        help: "Write each pair's coordinates, route and timings as JSON to this file.")
    var output: String?

    func validate() throws {
        if pairs < 1 { throw ValidationError("--pairs must be at least 1, got \(pairs)") }
        if repetitions < 1 { throw ValidationError("--repetitions must be at least 1, got \(repetitions)") }
        if !(minDistance >= 0) { throw ValidationError("--min-distance must be 0 or more metres") }
    }

    func run() throws {
        let network = try MapFile(path: map)
        let pairList =
            try pairsFile.map { try RoutePairs.read(csv: $0) }
            ?? RoutePairs.random(count: pairs, on: network, seed: seed, minimumDistance: minDistance)
        let planner = RoutePlanner(network: network)

        // The untimed pass: each pair's route (or why there is none), and a warm cache.
        var routes: [Result<PlannedRoute, any Error>] = []
        for pair in pairList {
            routes.append(Result { try planner.plan(from: pair.origin, to: pair.destination) })
        }
        var all = Samples()
        var perPair = Array(repeating: [Double](), count: pairList.count)
        for _ in 0..<repetitions {
            for (index, pair) in pairList.enumerated() {
                guard case .success = routes[index] else { continue }
                let start = MonotonicClock.now()
                _ = try planner.plan(from: pair.origin, to: pair.destination)
                let seconds = MonotonicClock.now() - start
                all.add(seconds)
                perPair[index].append(seconds)
            }
        }

        let planned = routes.compactMap { try? $0.get() }
        let source = pairsFile.map { "from \($0)" } ?? "seed \(seed), ≥ \(Int(minDistance)) m apart"
        print(
            "route queries on \(map): \(pairList.count) pairs (\(source)) × \(repetitions) after one untimed pass, release build:"
        )
        print(
            "  plan(from:to:): \(all.summary(scale: 1000, unit: "ms")), max \(String(format: "%.2f", all.maximum * 1000)) ms"
        )
        print("  routed \(planned.count) of \(pairList.count) pairs")
        for (index, route) in routes.enumerated() {
            if case .failure(let error) = route { print("  pair \(index) not routed: \(error)") }
        }
        if !planned.isEmpty {
            let lengths = Samples(planned.map(\.length)), durations = Samples(planned.map(\.duration))
            let straight = Samples(pairList.map(\.distance))
            print(
                String(
                    format:
                        "  straight-line distance p50 %.0f m; route length p50 %.0f m (max %.0f m); duration p50 %.0f s (max %.0f s)",
                    straight.percentile(50), lengths.percentile(50), lengths.maximum,
                    durations.percentile(50), durations.maximum))
        }
        print(String(format: "  peak resident memory: %.1f MiB", peakResidentMegabytes()) + " (\(allocatorName()))")

        if let output {
            var entries: [[String: Any]] = []
            for (index, pair) in pairList.enumerated() {
                var entry: [String: Any] = [
                    "index": index,
                    "from": [pair.origin.latitude, pair.origin.longitude],
                    "to": [pair.destination.latitude, pair.destination.longitude],
                    "query_ms": perPair[index].map { ($0 * 1e6).rounded() / 1000 },
                ]
                switch routes[index] {
                case .success(let route):
                    entry["ok"] = true
                    entry["length_m"] = (route.length * 100).rounded() / 100
                    entry["duration_s"] = (route.duration * 100).rounded() / 100
                    let parts = route.legs.map(\.breakdown)
                    entry["driving_s"] = (parts.reduce(0) { $0 + $1.driving } * 100).rounded() / 100
                    entry["signals_s"] = (parts.reduce(0) { $0 + $1.signals } * 100).rounded() / 100
                    entry["turns_s"] = (parts.reduce(0) { $0 + $1.turns } * 100).rounded() / 100
                    entry["signal_count"] = parts.reduce(0) { $0 + $1.signalCount }
                    entry["turn_count"] = parts.reduce(0) { $0 + $1.turnCount }
                    entry["shape"] = try route.shape(in: network).map {
                        [Self.rounded($0.latitude), Self.rounded($0.longitude)]
                    }
                case .failure(let error):
                    entry["ok"] = false
                    entry["error"] = "\(error)"
                }
                entries.append(entry)
            }
            let document: [String: Any] = [
                "map": map, "seed": pairsFile == nil ? Int(truncatingIfNeeded: seed) : NSNull(),
                "min_distance_m": pairsFile == nil ? minDistance : NSNull(),
                "pairs_file": pairsFile ?? NSNull(), "repetitions": repetitions, "pairs": entries,
            ]
            let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            print("  wrote \(output)")
        }
    }

    /// Seven decimals of a degree: about 1 cm.
    private static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }
}

import ArgumentParser
import Foundation
import RoadMap
import RoadMapImport
import RoadMapStore

/// `adasis-bench map`: import time, map size, spatial-query and next-links latency.
struct MapBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Benchmark the map import and the per-fix map queries (p50/p99).")

    @Option(help: "The OSM extract to import.")
    var pbf: String = "Data/helsinki.osm.pbf"

    @Option(name: .customLong("map"), help: "An existing map file: skip the import and measure only its queries.")
    var mapFile: String?

    @Option(help: "ISO country code of the extract.")
    var country: String = "FI"

    @Option(help: "Import runs.")
    var runs: Int = 10

    @Option(help: "Spatial and next-link queries.")
    var queries: Int = 20_000

    @Option(help: "Radius of the spatial query, metres (the matcher's search radius).")
    var radius: Double = 50

    func run() throws {
        let imported = FileManager.default.temporaryDirectory.appendingPathComponent("adasis-bench-\(getpid()).map")
            .path
        defer { unlink(imported) }
        let output = mapFile ?? imported
        if mapFile == nil { try measureImport(output: output) }
        let size = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.intValue ?? 0
        let map = try MapFile(path: output)
        let metadata = map.metadata
        let report = metadata.importReport
        print("map file: \(size) bytes, \(report.links) links, \(String(format: "%.1f", report.totalLength / 1000)) km")

        let box = metadata.boundingBox
        guard box.count == 4 else { throw ValidationError("the map \(output) has no links to query") }
        var random = SplitMix64(state: 42)
        var points: [GeoPoint] = []
        for _ in 0..<queries {
            points.append(
                GeoPoint(
                    latitude: Double.random(in: box[0]...box[2], using: &random),
                    longitude: Double.random(in: box[1]...box[3], using: &random)))
        }
        for point in points.prefix(100) { _ = try map.links(near: point, radius: radius) }  // warm the cache
        var near = Samples()
        var directed: [DirectedLink] = []
        for point in points {
            let found = try near.time { try map.links(near: point, radius: radius) }
            if let link = found.first {
                directed.append(DirectedLink(link.id, link.oneway == .backward ? .backward : .forward))
            }
        }
        print("links(near:radius: \(Int(radius)) m): \(near.summary(scale: 1e6, unit: "µs"))")
        var lookup = Samples()
        for link in directed { _ = try lookup.time { try map.link(link.link) } }
        print("link(_:), tile cached: \(lookup.summary(scale: 1e6, unit: "µs"))")
        var next = Samples()
        for link in directed { _ = try next.time { try map.successors(of: link) } }
        print("successors(of:): \(next.summary(scale: 1e6, unit: "µs"))")
        var cold = Samples()
        for point in points.prefix(200) {
            let fresh = try MapFile(path: output, cacheBytes: 1)
            _ = try cold.time { try fresh.links(near: point, radius: radius) }
        }
        print("links(near:) with an empty cache (tile reads from SQLite): \(cold.summary(scale: 1e6, unit: "µs"))")
        var prefetch = Samples()
        for point in points.prefix(50) {
            let fresh = try MapFile(path: output)
            try prefetch.time { try fresh.prefetch(around: point, radius: 2000, maximumReads: .max) }
        }
        print(
            "prefetch(around:radius: 2000 m, every tile) with an empty cache: \(prefetch.summary(scale: 1000, unit: "ms"))"
        )
        print(String(format: "peak resident memory: %.1f MiB", peakResidentMegabytes()) + " (\(allocatorName()))")
    }

    /// Imports --pbf --runs times into `output` and prints the time per import.
    private func measureImport(output: String) throws {
        let options = RoadGraphOptions(country: try Country(alpha2: country))
        var importTimes = Samples()
        var metadata: MapMetadata?
        for _ in 0..<runs {
            metadata = try importTimes.time { try MapImport.run(input: pbf, output: output, options: options) }
        }
        guard let metadata else { throw ValidationError("--runs must be at least 1") }
        let report = metadata.importReport
        let objects = Double(report.nodesRead + report.waysRead + report.relationsRead)
        print(
            "import \(pbf): \(importTimes.summary(scale: 1000, unit: "ms")); \(Int(objects / importTimes.percentile(50))) objects/s at p50"
        )
    }
}

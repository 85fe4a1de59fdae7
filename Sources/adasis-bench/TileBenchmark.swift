import ArgumentParser
import Foundation
import MapTiles
import RoadMap
import RoadMapImport
import RoadMapStore

/// `adasis-bench tiles`: vector-tile generation latency for every tile of the sample map.
struct TileBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Vector-tile (MVT) generation latency (p50/p99) over every tile of the map at a zoom.")

    @Option(help: "The OSM extract to import for the run.")
    var pbf: String = "Data/helsinki.osm.pbf"

    @Option(help: "The zoom of the tiles.")
    var zoom: Int = 14

    @Option(help: "Passes over all tiles (more samples for the percentiles).")
    var repetitions: Int = 20

    func run() throws {
        let mapPath = FileManager.default.temporaryDirectory.appendingPathComponent("adasis-bench-t-\(getpid()).map")
            .path
        defer { unlink(mapPath) }
        let metadata = try MapImport.run(
            input: pbf, output: mapPath, options: RoadGraphOptions(country: try Country(alpha2: "FI")))
        let box = metadata.boundingBox
        let northWest = try TileAddress(containing: GeoPoint(latitude: box[2], longitude: box[1]), zoom: zoom)
        let southEast = try TileAddress(containing: GeoPoint(latitude: box[0], longitude: box[3]), zoom: zoom)
        var addresses: [TileAddress] = []
        for x in northWest.x...southEast.x {
            for y in northWest.y...southEast.y { addresses.append(try TileAddress(zoom: zoom, x: x, y: y)) }
        }
        var cold = Samples(), warm = Samples(), cached = Samples()
        var bytes: [Int] = []
        for _ in 0..<max(1, repetitions) {
            let map = try MapFile(path: mapPath)
            let source = RoadTileSource(network: map)
            for address in addresses { bytes.append(try cold.time { try source.tile(address) }.count) }
            let fresh = RoadTileSource(network: map)
            for address in addresses { _ = try warm.time { try fresh.tile(address) } }
            for address in addresses { _ = try cached.time { try fresh.tile(address) } }
        }
        let sorted = bytes.sorted()
        print("\(addresses.count) tiles at zoom \(zoom), \(sorted.first ?? 0)–\(sorted.last ?? 0) bytes each")
        print("tile, map tiles read from the file: \(cold.summary(scale: 1000, unit: "ms"))")
        print("tile, map tiles in memory: \(warm.summary(scale: 1000, unit: "ms"))")
        print("tile from the tile cache: \(cached.summary(scale: 1e6, unit: "µs"))")
    }
}

import Foundation
import RoadMap
import RoadMapImport
import RoadMapStore
import TestSupport

/// The sample map (Data/helsinki.osm.pbf), imported once per test process, and random drivable
/// paths on it.
enum SampleMap {
    static let path: Result<String, Error> = Result {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "adasis-traffic-tests-\(getpid()).map"
        ).path
        _ = try MapImport.run(
            input: Repository.url("Data/helsinki.osm.pbf").path, output: output,
            options: RoadGraphOptions(country: try Country(alpha2: "FI")))
        return output
    }

    static func map() throws -> MapFile { try MapFile(path: try path.get()) }
}

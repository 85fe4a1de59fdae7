import Foundation
import GNSS
import RoadMap
import TestSupport
import RoadMapImport
import RoadMapStore

/// The sample map and ground-truth drives shipped in Data/, imported once per test process.
enum SampleDrives {
    static let names = ["esplanadi", "kaisaniemi", "kamppi", "kruununhaka", "mannerheimintie", "ullanlinna"]

    static let mapPath: Result<String, Error> = Result {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "adasis-provider-tests-\(getpid()).map"
        ).path
        _ = try MapImport.run(
            input: Repository.url("Data/helsinki.osm.pbf").path, output: output,
            options: RoadGraphOptions(country: try Country(alpha2: "FI")))
        return output
    }

    static func map() throws -> MapFile { try MapFile(path: try mapPath.get()) }

    static func fixes(_ name: String, noisy: Bool = false) throws -> [GNSSFix] {
        try TraceFile(path: Repository.url("Data/drives/\(name)\(noisy ? "-noisy" : "").csv").path).fixes
    }

    /// The true OSM way of every fix of a drive (the CSV's `true_way_id` column).
    static func trueWays(_ name: String) throws -> [Int64] {
        let text = try String(contentsOf: Repository.url("Data/drives/\(name).csv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            line.split(separator: ",").last.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        }
    }
}

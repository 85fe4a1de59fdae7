import Foundation
import GNSS
import RoadMap
import TestSupport
import RoadMapImport
import RoadMapStore

/// The sample map and ground-truth drives shipped in Data/, imported once per test process.
enum SampleDrives {
    static let names = SampleDriveList.names
    /// Drives made on the synthetic extract Data/drives/suburb.osm.pbf (Data/drives/README.md).
    static let suburbNames = SampleDriveList.suburbNames

    static let suburbMapPath: Result<String, Error> = Result { try ImportedMap.file(SampleDriveList.suburb) }

    /// The map a drive was made on.
    static func map(for drive: String) throws -> MapFile {
        suburbNames.contains(drive) ? try MapFile(path: try suburbMapPath.get()) : try map()
    }

    static let mapPath: Result<String, Error> = Result { try ImportedMap.file(SampleDriveList.helsinki) }

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

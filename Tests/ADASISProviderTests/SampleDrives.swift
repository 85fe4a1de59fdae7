import Foundation
import GNSS
import RoadMap
import TestSupport
import RoadMapImport
import RoadMapStore

/// The sample maps and ground-truth drives shipped in Data/ (the list: ``SampleDriveList``); each
/// extract is imported once per test process (``ImportedMap``).
enum SampleDrives {
    /// The map a drive was made on (``SampleDriveList/extract(of:)``).
    static func map(for drive: String) throws -> MapFile {
        try MapFile(path: try ImportedMap.file(SampleDriveList.extract(of: drive)))
    }

    /// The Helsinki sample map.
    static func map() throws -> MapFile { try MapFile(path: try ImportedMap.file(SampleDriveList.helsinki)) }

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

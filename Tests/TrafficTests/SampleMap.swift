import Foundation
import RoadMap
import RoadMapImport
import RoadMapStore
import TestSupport

/// The sample map (Data/helsinki.osm.pbf), imported once per test process, and random drivable
/// paths on it.
enum SampleMap {
    static let path: Result<String, Error> = Result { try ImportedMap.file("Data/helsinki.osm.pbf") }

    static func map() throws -> MapFile { try MapFile(path: try path.get()) }
}

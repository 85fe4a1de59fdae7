import Foundation
import GNSS
import RoadMap
import RoadMapImport
import RoadMapStore
import TestSupport

/// The synthetic two-country map (`Tools/make-border-map`: Austria AT-5 east of longitude 12.95,
/// Germany DE-BY west of it) and its drive west across the border, imported once per process.
enum BorderDrive {
    /// Longitude of the border.
    static let borderLongitude = 12.95

    static let mapPath: Result<String, Error> = Result {
        try ImportedMap.file("Data/border/de-at-border.osm.pbf", country: nil)
    }

    static func map() throws -> MapFile { try MapFile(path: try mapPath.get()) }

    static func fixes() throws -> [GNSSFix] {
        try TraceFile(path: Repository.url("Data/border/border-drive.csv").path).fixes
    }

    /// When the drive crosses the border (interpolated between the fixes either side).
    static func crossingTime(_ fixes: [GNSSFix]) -> Double? {
        for (before, after) in zip(fixes, fixes.dropFirst())
        where before.longitude >= borderLongitude && after.longitude < borderLongitude {
            let share =
                (before.longitude - borderLongitude)
                / (before.longitude - after.longitude)
            return before.time + share * (after.time - before.time)
        }
        return nil
    }
}

import Foundation
import RoadMap
import RoadMapImport

/// A repository extract imported into a temporary map file, as the tests' fixtures need it. Keep
/// the result in a `static let … = Result { try ImportedMap.file(…) }`, so that each test process
/// imports an extract once.
public enum ImportedMap {
    /// Imports the OSM extract at `extract` (relative to the repository root) and returns the map
    /// file's path, in the temporary directory under a name no other process uses.
    /// - Parameter country: the ISO 3166-1 alpha-2 code for links outside any admin boundary of the
    ///   extract, or `nil` when the extract's boundaries must place every link.
    public static func file(_ extract: String, country: String? = "FI") throws -> String {
        let name = URL(fileURLWithPath: extract).deletingPathExtension().deletingPathExtension().lastPathComponent
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("adasis-tests-\(name)-\(getpid())-\(UUID().uuidString.prefix(8)).map").path
        _ = try MapImport.run(
            input: Repository.url(extract).path, output: output,
            options: RoadGraphOptions(country: try country.map { try Country(alpha2: $0) }))
        return output
    }
}

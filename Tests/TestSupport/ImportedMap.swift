import Foundation
import RoadMap
import RoadMapImport
import Synchronization

/// The map files imported so far in this test process, by extract and country.
private let importedMaps = Mutex<[String: Result<String, any Error>]>([:])

/// A repository extract imported into a temporary map file, as the tests' fixtures need it. The
/// first call for an extract imports it; later calls in the same test process (every test target
/// runs in one) return the same file, so the sample map is imported once per run, not once per
/// fixture.
public enum ImportedMap {
    /// Imports the OSM extract at `extract` (relative to the repository root), or reuses this
    /// process's earlier import of it, and returns the map file's path, in the
    /// ``ScratchDirectory`` (removed when the process exits). Callers must not modify the file.
    /// - Parameter country: the ISO 3166-1 alpha-2 code for links outside any admin boundary of the
    ///   extract, or `nil` when the extract's boundaries must place every link.
    public static func file(_ extract: String, country: String? = "FI") throws -> String {
        let key = "\(extract)|\(country ?? "-")"
        let result = importedMaps.withLock { maps in
            if let earlier = maps[key] { return earlier }
            let imported = Result { try importFile(extract, country: country) }
            maps[key] = imported
            return imported
        }
        return try result.get()
    }

    private static func importFile(_ extract: String, country: String?) throws -> String {
        let name = URL(fileURLWithPath: extract).deletingPathExtension().deletingPathExtension().lastPathComponent
        let output = ScratchDirectory.path("imported-\(name)-\(UUID().uuidString.prefix(8)).map")
        _ = try MapImport.run(
            input: Repository.url(extract).path, output: output,
            options: RoadGraphOptions(country: try country.map { try Country(alpha2: $0) }))
        return output
    }
}

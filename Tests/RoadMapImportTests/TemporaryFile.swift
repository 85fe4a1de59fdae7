import Foundation

/// Paths for the files an import test writes, unique to this test process.
enum TemporaryFile {
    /// A path in the temporary directory named after `name` and this process.
    static func path(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("adasis-\(getpid())-\(name)").path
    }
}

import Foundation
import TestSupport

/// Paths for the files an import test writes, in this test process's ``ScratchDirectory``.
enum TemporaryFile {
    /// The path of `name` in the scratch directory, prefixed so that it meets no other target's file.
    static func path(_ name: String) -> String {
        ScratchDirectory.path("import-\(name)")
    }
}

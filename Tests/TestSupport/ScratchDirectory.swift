import Foundation

/// The directory this test process writes its files in: `adasis-tests-<pid>-XXXXXX` in the
/// temporary directory (`TMPDIR`, else /tmp), made with `mkdtemp` when a test first asks for it
/// and removed, with everything in it, when the process exits (an `atexit` handler). So nothing
/// outlives the run: not a file kept for the whole run (a map every suite shares), not one a
/// failing test never got to delete. Only a process killed by a signal leaves its directory.
///
/// The tests of one process run in parallel: a name must be one no other test uses at the same
/// time (every test target runs in the same process). Other users may pass through the directory
/// but not list it (0711), so that a program a test runs as user nobody reaches the
/// subdirectory the test opened to it.
public enum ScratchDirectory {
    /// The directory's path.
    public static var path: String { scratchDirectoryPath }

    /// The directory as a file URL.
    public static var url: URL { URL(fileURLWithPath: scratchDirectoryPath, isDirectory: true) }

    /// The path of `name` in the directory; nothing is created.
    public static func path(_ name: String) -> String { url(name).path }

    /// `name` in the directory as a file URL; nothing is created.
    public static func url(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// The scratch directory's path: made on first use, with the handler that removes it at exit.
private let scratchDirectoryPath: String = {
    let template = FileManager.default.temporaryDirectory.appendingPathComponent("adasis-tests-\(getpid())-XXXXXX")
    var bytes = template.path.utf8CString
    let made = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } }
    guard let path = made else {
        fatalError("cannot make the tests' scratch directory \(template.path): \(String(cString: strerror(errno)))")
    }
    chmod(path, 0o711)
    atexit { removeScratchDirectory() }
    return path
}()

/// Removes the scratch directory and everything in it (the `atexit` handler).
private func removeScratchDirectory() {
    try? FileManager.default.removeItem(atPath: scratchDirectoryPath)
}

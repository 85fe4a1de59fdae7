import Foundation

/// The checked-out repository the tests run from.
public enum Repository {
    /// The repository root, found from this file's path (`Tests/TestSupport/Repository.swift`).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The file or directory at `relativePath` from the root (`Data/drives/kamppi.csv`).
    public static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }
}

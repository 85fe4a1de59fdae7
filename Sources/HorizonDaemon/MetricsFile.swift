import Foundation
import RoadMapStore

/// Writes a metrics file atomically (``AtomicFile``): the text goes to a temporary file in the
/// same directory, which is then renamed over the target, so node_exporter never reads half a file.
/// The file's mode is 0644 whatever the daemon's umask (the unit sets 0077): node_exporter runs as
/// another user and must read it; nobody else may write it.
public enum MetricsFile {
    /// The metrics file's mode: written by the daemon, read by everyone.
    public static let mode: mode_t = 0o644

    /// Writing the metrics file failed.
    public struct WriteError: Error, CustomStringConvertible {
        /// The target file.
        public let path: String
        /// The failing step.
        public let step: String
        /// Why it failed.
        public let reason: String

        /// The failure in words, with what to check.
        public var description: String {
            "metrics file \(path): \(step) failed: \(reason); check metrics.textfile and that the directory is writable"
        }
    }

    /// Replaces `path` with `text`.
    public static func write(_ text: String, to path: String) throws(WriteError) {
        do throws(AtomicFileError) {
            try AtomicFile.replace(path, with: Array(text.utf8), mode: mode)
        } catch {
            throw WriteError(path: path, step: error.step, reason: error.reason)
        }
    }
}

import RoadMapStore

/// Writes a metrics file atomically (``AtomicFile``): the text goes to a temporary file in the
/// same directory, which is then renamed over the target, so node_exporter never reads half a file.
public enum MetricsFile {
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
            try AtomicFile.replace(path, with: Array(text.utf8))
        } catch {
            throw WriteError(path: path, step: error.step, reason: error.reason)
        }
    }
}

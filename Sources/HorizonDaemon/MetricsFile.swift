#if canImport(Glibc)
import Glibc
#endif

/// Writes a metrics file atomically: the text goes to a temporary file in the same directory,
/// which is then renamed over the target, so node_exporter never reads half a file.
public enum MetricsFile {
    /// Writing the metrics file failed.
    public struct WriteError: Error, CustomStringConvertible {
        /// The target file.
        public let path: String
        /// The failing step.
        public let step: String
        /// errno.
        public let code: Int32

        /// The failure in words, with what to check.
        public var description: String {
            "metrics file \(path): \(step) failed: \(String(cString: strerror(code))); check metrics.textfile and that the directory is writable"
        }
    }

    /// Replaces `path` with `text`.
    public static func write(_ text: String, to path: String) throws(WriteError) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: path, step: "creating \(temporary)", code: errno) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                close(fd)
                unlink(temporary)
                throw WriteError(path: path, step: "writing \(temporary)", code: code)
            }
            written += count
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw WriteError(path: path, step: "renaming \(temporary)", code: code)
        }
    }
}

import Foundation

/// Why a file could not be replaced; the target is left as it was and no partial file remains.
public struct AtomicFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file to be replaced.
    public var path: String
    /// The step that failed: `creating`, `writing` or `renaming` and the temporary file's name.
    public var step: String
    /// Why it failed (the system's message, or the writer's error).
    public var reason: String

    /// `PATH: STEP failed: REASON`.
    public var description: String { "\(path): \(step) failed: \(reason)" }
}

/// Replaces files atomically: the content is written under a temporary name in the same
/// directory (`PATH.partial-PID`) and renamed over the target only when complete, so a reader
/// never sees half a file and a failure leaves no partial file behind. The one way this package
/// writes a file that others read (maps, metrics, logs, exports).
public enum AtomicFile {
    /// Replaces `path` with `bytes`. The new file gets `mode` exactly, whatever the umask (a file
    /// another user must read, such as the metrics), or without it 0644 less the umask. The
    /// temporary file is created exclusively and never through a symbolic link, so a link planted
    /// under its name in a shared directory cannot redirect the write.
    /// - Throws: ``AtomicFileError`` naming the failed step.
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t? = nil) throws(AtomicFileError) {
        try replace(path) { (temporary: String) throws(AtomicFileError) in
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode ?? 0o644)
            guard fd >= 0 else { throw systemError(path, "creating \(temporary)") }
            defer { close(fd) }
            // Only when the umask took bits away: on file systems that map every owner to one
            // user (UML's hostfs, some network mounts) fchmod by the writer fails with EPERM.
            var status = stat()
            if let mode, fstat(fd, &status) == 0, status.st_mode & 0o7777 != mode, fchmod(fd, mode) != 0 {
                throw systemError(path, "setting the mode of \(temporary)")
            }
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw systemError(path, "writing \(temporary)") }
                written += count
            }
        }
    }

    /// Replaces `path` with the file that `body` writes at the temporary path it is given.
    /// - Throws: ``AtomicFileError``: the error `body` threw as its reason, or the failed rename.
    public static func replace(_ path: String, writing body: (_ temporary: String) throws -> Void)
        throws(AtomicFileError)
    {
        let temporary = path + ".partial-\(getpid())"
        unlink(temporary)
        do {
            try body(temporary)
        } catch let error as AtomicFileError {
            unlink(temporary)
            throw error
        } catch {
            unlink(temporary)
            throw AtomicFileError(path: path, step: "writing \(temporary)", reason: "\(error)")
        }
        guard rename(temporary, path) == 0 else {
            let failure = systemError(path, "renaming \(temporary)")
            unlink(temporary)
            throw failure
        }
    }

    private static func systemError(_ path: String, _ step: String) -> AtomicFileError {
        AtomicFileError(path: path, step: step, reason: String(cString: strerror(errno)))
    }
}

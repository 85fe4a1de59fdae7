#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import RoadMap

/// Where an `OSMPBFReader` takes its bytes from: a whole file in memory, or a file read piecewise.
enum PBFByteSource: Sendable {
    case memory([UInt8])
    case file(OpenPBFFile)

    /// Total size in bytes.
    var count: Int {
        switch self {
        case .memory(let bytes): return bytes.count
        case .file(let file): return file.size
        }
    }

    /// Up to `count` bytes starting at `offset`; fewer only when the source ends first.
    func bytes(at offset: Int, count: Int) throws(OSMPBFError) -> [UInt8] {
        switch self {
        case .memory(let bytes):
            let start = min(max(offset, 0), bytes.count)
            let end = start + min(max(count, 0), bytes.count - start)
            return Array(bytes[start..<end])
        case .file(let file):
            return try file.read(at: offset, count: count)
        }
    }
}

/// An open, read-only file descriptor, closed when the last reader copy goes away.
final class OpenPBFFile: Sendable {
    /// The path it was opened with (for error messages).
    let path: String
    /// Its size when opened.
    let size: Int
    private let descriptor: Int32

    /// Opens `path` read-only (`open(2)` + `fstat(2)`); directories are refused.
    init(path: String) throws(OSMPBFError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path, errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = errno
            close(descriptor)
            throw .cannotOpen(path, errno: failure)
        }
        guard (status.st_mode & S_IFMT) != S_IFDIR else {
            close(descriptor)
            throw .cannotOpen(path, errno: EISDIR)
        }
        self.path = path
        self.size = Int(status.st_size)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes at `offset` (`pread(2)`, retried on `EINTR` and short reads); fewer only at end of file.
    func read(at offset: Int, count: Int) throws(OSMPBFError) -> [UInt8] {
        guard count > 0, offset >= 0 else { return [] }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let result = pread(
                    // count > 0 (checked above), so the buffer has an address.
                    descriptor, buffer.baseAddress! + initialized, count - initialized,
                    off_t(offset + initialized))
                if result > 0 {
                    initialized += result
                } else if result == 0 {
                    return
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        guard failure == 0 else { throw .readFailed(path, offset: offset, errno: failure) }
        return bytes
    }
}

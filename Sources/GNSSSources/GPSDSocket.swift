#if canImport(Glibc)
    import Glibc
#endif
import GNSS

/// The POSIX calls of the gpsd client: a blocking TCP socket with send and receive timeouts.
/// Internal; ``GPSDClient`` owns the descriptor and closes it.
enum GPSDSocket {
    /// What one receive call produced.
    enum Received: Equatable {
        /// This many bytes were stored in the buffer.
        case bytes(Int)
        /// Nothing arrived within the receive timeout.
        case timedOut
        /// gpsd closed the connection.
        case closed
        /// The connection failed with this errno.
        case failed(Int32)
    }

    /// Resolves `host`, connects to `port` (trying each address), and sets both timeouts.
    static func connect(host: String, port: UInt16, timeout: Duration) throws(GPSDClientError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw GPSDClientError(code: .hostNotFound, errno: 0, host: host, port: port, detail: reason)
        }
        defer { freeaddrinfo(list) }
        var lastErrno: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = socket(
                address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                address.pointee.ai_protocol)
            guard fd >= 0 else { lastErrno = errno; continue }
            // On Linux, SO_SNDTIMEO also bounds connect().
            guard setTimeout(fd, SO_SNDTIMEO, timeout), setTimeout(fd, SO_RCVTIMEO, timeout) else {
                lastErrno = errno
                close(fd)
                continue
            }
            var result: Int32
            repeat {
                result = Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen)
            } while result == -1 && errno == EINTR
            if result == 0 { return fd }
            lastErrno = errno
            close(fd)
        }
        throw GPSDClientError(errno: lastErrno, host: host, port: port)
    }

    /// Sends all of `text`.
    static func send(_ fd: Int32, _ text: String, host: String, port: UInt16) throws(GPSDClientError) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw GPSDClientError(errno: errno, host: host, port: port)
            }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// Receives up to `buffer.count` bytes, waiting at most the receive timeout.
    static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Received {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .timedOut
            case let code: return .failed(code)
            }
        }
    }

    private static func setTimeout(_ fd: Int32, _ option: Int32, _ timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        if value.tv_sec == 0 && value.tv_usec == 0 { value.tv_usec = 1 }  // 0 would mean "no timeout"
        return setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size)) == 0
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Tells systemd how the service is doing (sd_notify without libsystemd): one datagram per
/// message to the Unix socket named by `$NOTIFY_SOCKET` (a path, or `@name` for an abstract
/// socket), e.g. `READY=1`, `WATCHDOG=1`, `STOPPING=1`, `STATUS=…`.
public struct SystemdNotifier: Sendable {
    /// The socket address as given in `$NOTIFY_SOCKET`.
    public let socketPath: String
    /// How often to send `WATCHDOG=1`: half of `$WATCHDOG_USEC`; `nil` without a watchdog.
    public let watchdogInterval: Double?

    /// The notifier of the service manager in `environment`; `nil` when not run by systemd
    /// (no `$NOTIFY_SOCKET`). The watchdog is used only when `$WATCHDOG_PID` is unset or ours.
    public init?(environment: [String: String], processID: Int32) {
        guard let path = environment["NOTIFY_SOCKET"], path.count > 1 else { return nil }
        socketPath = path
        if let micros = environment["WATCHDOG_USEC"].flatMap(UInt64.init), micros > 0,
            environment["WATCHDOG_PID"].map({ Int32($0) == processID }) ?? true
        {
            watchdogInterval = Double(micros) / 1_000_000 / 2
        } else {
            watchdogInterval = nil
        }
    }

    /// A notification failed.
    public struct NotifyError: Error, CustomStringConvertible {
        /// The socket.
        public let socketPath: String
        /// errno of the failed call.
        public let code: Int32
        /// The call.
        public let call: String

        /// The failure in words, with what to check.
        public var description: String {
            "sd_notify to \(socketPath): \(call) failed: \(String(cString: strerror(code))) (is NOTIFY_SOCKET right?)"
        }
    }

    /// Sends `message` (e.g. `"READY=1"`) as one datagram.
    public func notify(_ message: String) throws(NotifyError) {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw NotifyError(socketPath: socketPath, code: errno, call: "socket") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }  // abstract namespace
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            throw NotifyError(socketPath: socketPath, code: ENAMETOOLONG, call: "sockaddr_un")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        // Abstract names are exactly as long as given; paths get their terminating NUL.
        let length = pathOffset + pathBytes.count + (pathBytes.first == 0 ? 0 : 1)
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, socklen_t(length))
            }
        }
        guard sent == bytes.count else { throw NotifyError(socketPath: socketPath, code: errno, call: "sendto") }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// An sd-bus call that failed: which one, and the errno it returned (as swift-system's `Errno`).
public struct BusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sd-bus function and what it was doing, e.g. `sd_bus_request_name(org.adasis.Horizon1)`.
    public var operation: String
    /// The positive errno value.
    public var errno: Int32

    /// Creates an error from an sd-bus return value (a negative errno) or a positive errno.
    public init(_ operation: String, errno: Int32) {
        self.operation = operation
        self.errno = abs(errno)
    }

    /// The connection to the bus is gone (the bus daemon stopped or dropped us).
    public var isDisconnect: Bool { [ECONNRESET, ENOTCONN, EPIPE, ESHUTDOWN].contains(errno) }

    public var description: String {
        let text = String(cString: strerror(errno))
        switch errno {
        case EEXIST:
            return "\(operation): the name is owned by another process (is another adasis run up?)"
        case EACCES, EPERM:
            return
                "\(operation): refused by the bus's policy (\(text)); install udev/org.adasis.Horizon1.conf in /etc/dbus-1/system.d and run as user adasis"
        case ENOENT, ECONNREFUSED:
            return "\(operation): no bus to connect to (\(text)); is dbus-daemon running?"
        default:
            return "\(operation): \(text)"
        }
    }
}

/// Turns an sd-bus return value into a result: negative is a ``BusError``.
@discardableResult
func check(_ result: Int32, _ operation: @autoclosure () -> String) throws(BusError) -> Int32 {
    guard result >= 0 else { throw BusError(operation(), errno: result) }
    return result
}

#if canImport(Glibc)
    import Glibc
#endif

/// A failed SocketCAN system call, classified so callers can switch on ``code`` (e.g. apply a drop
/// policy on ``Code/transmitQueueFull``) and print ``description`` to a user.
public struct SocketCANError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, independent of the exact errno.
    public enum Code: Hashable, Sendable {
        /// The interface's transmit queue is full (ENOBUFS, or EAGAIN on a non-blocking send).
        case transmitQueueFull
        /// The interface is down (ENETDOWN).
        case networkDown
        /// No interface of that name exists (ENODEV, or an unknown name).
        case noSuchInterface
        /// The process lacks the permission (EPERM, EACCES).
        case permissionDenied
        /// Nothing arrived before the receive timeout.
        case timedOut
        /// The kernel has no CAN support (EAFNOSUPPORT, EPROTONOSUPPORT).
        case noCANSupport
        /// The interface name is not a valid name (empty or longer than 15 bytes).
        case invalidInterfaceName
        /// Any other errno; see ``errno``.
        case other
    }

    /// The classification.
    public var code: Code
    /// The raw errno value (0 when the failure did not come from errno, e.g. a timeout).
    public var errno: Int32
    /// The name of the failing call, e.g. `"bind"` or `"send"`.
    public var call: String
    /// The interface involved, if known.
    public var interface: String?

    /// Creates an error; ``code`` is derived from `errno` unless given.
    public init(errno: Int32, call: String, interface: String?, code: Code? = nil) {
        self.errno = errno
        self.call = call
        self.interface = interface
        self.code = code ?? Self.classify(errno: errno, call: call)
    }

    static func classify(errno: Int32, call: String) -> Code {
        switch errno {
        case ENOBUFS: return .transmitQueueFull
        case EAGAIN where call == "send": return .transmitQueueFull
        case ENETDOWN: return .networkDown
        case ENODEV, ENXIO: return .noSuchInterface
        case EPERM, EACCES: return .permissionDenied
        case EAFNOSUPPORT, EPROTONOSUPPORT: return .noCANSupport
        case ETIMEDOUT: return .timedOut
        default: return .other
        }
    }

    /// A one-line message saying what failed, where, and what to do.
    public var description: String {
        let on = interface.map { " on \($0)" } ?? ""
        switch code {
        case .transmitQueueFull:
            return "\(call)\(on): the transmit queue is full (frame not sent); slow down or drop frames"
        case .networkDown:
            return "\(call)\(on): the interface is down; bring it up with 'ip link set \(interface ?? "<if>") up'"
        case .noSuchInterface:
            return
                "\(call): no CAN interface named '\(interface ?? "?")'; list interfaces with 'ip link show' or create one with 'ip link add dev vcan0 type vcan'"
        case .permissionDenied:
            return "\(call)\(on): permission denied; run as root or grant CAP_NET_ADMIN/CAP_NET_RAW"
        case .timedOut:
            return "\(call)\(on): no frame arrived before the timeout"
        case .noCANSupport:
            return "\(call): this kernel has no CAN support (modprobe can can-raw) — use Tools/vcan-run"
        case .invalidInterfaceName:
            return "\(call): '\(interface ?? "")' is not a valid interface name (1 to 15 bytes)"
        case .other:
            return "\(call)\(on) failed: \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }
}

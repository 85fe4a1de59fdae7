#if canImport(Glibc)
    import Glibc
#endif
import CLibSocketCAN
import Foundation

/// Reads and changes a CAN controller's state and bit timing through libsocketcan (netlink).
///
/// Reading works unprivileged; changing the bitrate or starting/stopping/restarting needs
/// `CAP_NET_ADMIN`, and the bitrate can change only while the interface is down. A deployment lets
/// systemd-networkd configure the interface and runs the daemon unprivileged, so the daemon mostly
/// calls ``state()`` and reports. Virtual `vcan` interfaces have no controller: their getters fail
/// with ``CANInterfaceControlError/Code/notSupported``.
///
/// Every call first checks with `if_nametoindex` that the interface exists, because libsocketcan
/// reports some failures as -1 without setting errno (and prints its own message to stderr).
public struct CANInterfaceControl: Hashable, Sendable {
    /// The controller state the kernel reports (`enum can_state` in `linux/can/netlink.h`).
    public enum State: Int32, Hashable, Sendable, CaseIterable {
        /// Normal operation: error counters below 96.
        case errorActive = 0
        /// An error counter reached 96.
        case errorWarning = 1
        /// An error counter reached 128: the controller sends only passive error flags.
        case errorPassive = 2
        /// The transmit error counter reached 256: the controller is off the bus until restarted.
        case busOff = 3
        /// The interface is down.
        case stopped = 4
        /// The controller is in sleep mode.
        case sleeping = 5
    }

    /// The interface name, e.g. `can0` or `can-adas`.
    public var interface: String

    /// Creates a control for `interface`; nothing is checked until a method is called.
    public init(interface: String) {
        self.interface = interface
    }

    /// The controller state (`can_get_state`).
    /// - Throws: `.notSupported` on vcan and non-CAN interfaces, `.noSuchInterface`.
    public func state() throws(CANInterfaceControlError) -> State {
        try requireInterface(operation: "can_get_state")
        var raw: Int32 = -1
        try check("can_get_state") { can_get_state(interface, &raw) }
        guard let state = State(rawValue: raw) else {
            throw CANInterfaceControlError(
                code: .unknownState, errno: 0, operation: "can_get_state",
                interface: interface, detail: "state value \(raw)")
        }
        return state
    }

    /// The nominal bitrate in bits per second (`can_get_bittiming`).
    /// - Throws: `.notSupported` on vcan and non-CAN interfaces, `.noSuchInterface`.
    public func bitrate() throws(CANInterfaceControlError) -> UInt32 {
        try requireInterface(operation: "can_get_bittiming")
        var timing = can_bittiming()
        try check("can_get_bittiming") { can_get_bittiming(interface, &timing) }
        return timing.bitrate
    }

    /// Sets the nominal bitrate (`can_set_bitrate`); the interface must be down (see ``stop()``).
    /// - Throws: `.permissionDenied` without CAP_NET_ADMIN, `.interfaceBusy` while up,
    ///   `.invalidArgument` for a rate the controller cannot do, `.notSupported` on vcan.
    public func setBitrate(_ bitsPerSecond: UInt32) throws(CANInterfaceControlError) {
        try requireInterface(operation: "can_set_bitrate")
        guard bitsPerSecond > 0 else {
            throw CANInterfaceControlError(
                code: .invalidArgument, errno: EINVAL, operation: "can_set_bitrate",
                interface: interface, detail: "bitrate 0")
        }
        try requireNetAdmin(operation: "can_set_bitrate")
        try check("can_set_bitrate") { can_set_bitrate(interface, bitsPerSecond) }
    }

    /// Restarts a controller that is bus-off (`can_do_restart`).
    /// - Throws: `.notBusOff` when the controller is in any other state (nothing to restart),
    ///   `.permissionDenied`, `.notSupported` on vcan.
    public func restart() throws(CANInterfaceControlError) {
        let current = try state()
        guard current == .busOff else {
            throw CANInterfaceControlError(
                code: .notBusOff, errno: 0, operation: "can_do_restart",
                interface: interface, detail: "state \(current)")
        }
        try requireNetAdmin(operation: "can_do_restart")
        try check("can_do_restart") { can_do_restart(interface) }
    }

    /// Brings the interface up (`can_do_start`).
    /// - Throws: `.permissionDenied` without CAP_NET_ADMIN, `.noSuchInterface`.
    public func start() throws(CANInterfaceControlError) {
        try requireInterface(operation: "can_do_start")
        try requireNetAdmin(operation: "can_do_start")
        try check("can_do_start") { can_do_start(interface) }
    }

    /// Takes the interface down (`can_do_stop`), e.g. before ``setBitrate(_:)``.
    /// - Throws: `.permissionDenied` without CAP_NET_ADMIN, `.noSuchInterface`.
    public func stop() throws(CANInterfaceControlError) {
        try requireInterface(operation: "can_do_stop")
        try requireNetAdmin(operation: "can_do_stop")
        try check("can_do_stop") { can_do_stop(interface) }
    }

    /// Changing a CAN interface needs CAP_NET_ADMIN. libsocketcan reports a refusal from the kernel
    /// only on stderr and its errno is not reliable afterwards, so the capability is checked first
    /// (`CapEff` bit 12 in /proc/self/status).
    private func requireNetAdmin(operation: String) throws(CANInterfaceControlError) {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return }
        let netAdmin: UInt64 = 1 << 12
        if mask & netAdmin == 0 {
            throw CANInterfaceControlError(
                code: .permissionDenied, errno: EPERM, operation: operation, interface: interface)
        }
    }

    private func requireInterface(operation: String) throws(CANInterfaceControlError) {
        do {
            _ = try SystemCalls().interfaceIndex(interface)
        } catch {
            let code: CANInterfaceControlError.Code =
                error.code == .invalidInterfaceName ? .invalidInterfaceName : .noSuchInterface
            throw CANInterfaceControlError(code: code, errno: error.errno, operation: operation, interface: interface)
        }
    }

    /// Runs a libsocketcan call (0 = success, -1 = failure) with errno cleared first, so that a
    /// failure without errno can be told apart.
    private func check(_ operation: String, _ body: () -> Int32) throws(CANInterfaceControlError) {
        Glibc.errno = 0
        let result = body()
        guard result != 0 else { return }
        throw CANInterfaceControlError(errno: Glibc.errno, operation: operation, interface: interface)
    }
}

/// A failed libsocketcan operation, classified so callers can switch on ``code``; ``description``
/// says what failed, where, and what to do.
public struct CANInterfaceControlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Hashable, Sendable {
        /// The process lacks CAP_NET_ADMIN (EPERM, EACCES).
        case permissionDenied
        /// No interface of that name exists.
        case noSuchInterface
        /// The name is empty or longer than 15 bytes.
        case invalidInterfaceName
        /// The interface has no CAN controller to query or configure (vcan or a non-CAN
        /// interface: libsocketcan finds no CAN link data, or the kernel answers EOPNOTSUPP).
        case notSupported
        /// The change needs the interface down (EBUSY).
        case interfaceBusy
        /// The controller rejected the value (EINVAL, ERANGE, EDOM).
        case invalidArgument
        /// ``CANInterfaceControl/restart()`` on a controller that is not bus-off.
        case notBusOff
        /// The kernel reported a state this library does not know.
        case unknownState
        /// Any other errno; see ``errno``.
        case other
    }

    /// The classification.
    public var code: Code
    /// The errno after the call (0 when libsocketcan failed without setting it).
    public var errno: Int32
    /// The libsocketcan function, e.g. `"can_set_bitrate"`.
    public var operation: String
    /// The interface name.
    public var interface: String
    /// Extra facts for the message (e.g. the state found), if any.
    public var detail: String?

    /// Creates an error with an explicit code.
    public init(code: Code, errno: Int32, operation: String, interface: String, detail: String? = nil) {
        self.code = code
        self.errno = errno
        self.operation = operation
        self.interface = interface
        self.detail = detail
    }

    /// Creates an error classified from the errno a libsocketcan call left behind.
    public init(errno: Int32, operation: String, interface: String) {
        self.init(code: Self.classify(errno: errno), errno: errno, operation: operation, interface: interface)
    }

    /// Maps an errno left by libsocketcan to a ``Code``; 0 means it found no CAN link data.
    static func classify(errno: Int32) -> Code {
        switch errno {
        case 0, EOPNOTSUPP: return .notSupported
        case EPERM, EACCES: return .permissionDenied
        case ENODEV, ENXIO: return .noSuchInterface
        case EBUSY: return .interfaceBusy
        case EINVAL, ERANGE, EDOM: return .invalidArgument
        default: return .other
        }
    }

    /// A one-line message: what failed, where, and what to do.
    public var description: String {
        let prefix = "\(operation) on \(interface)"
        let extra = detail.map { " (\($0))" } ?? ""
        switch code {
        case .permissionDenied:
            return "\(prefix): permission denied; changing a CAN interface needs CAP_NET_ADMIN — let "
                + "systemd-networkd configure it (udev/80-can-adas.network) and run adasis unprivileged"
        case .noSuchInterface:
            return "\(prefix): no interface named '\(interface)'; list interfaces with 'ip link show' "
                + "and check the adapter is plugged in (udev/80-adasis-can.rules names it)"
        case .invalidInterfaceName:
            return "\(prefix): '\(interface)' is not a valid interface name (1 to 15 bytes)"
        case .notSupported:
            return "\(prefix): not supported — the interface has no CAN controller state or bit timing "
                + "(a virtual vcan or non-CAN interface); this works only on real CAN hardware\(extra)"
        case .interfaceBusy:
            return "\(prefix): the interface is up; take it down first ('ip link set \(interface) down') "
                + "— the bitrate can change only while down"
        case .invalidArgument:
            return "\(prefix): the controller rejected the value\(extra); check the bitrate is one the "
                + "adapter supports (e.g. 125000, 250000, 500000, 1000000)"
        case .notBusOff:
            return "\(prefix): the controller is not bus-off\(extra); a restart is only needed after bus-off"
        case .unknownState:
            return "\(prefix): the kernel reported an unknown CAN state\(extra); update adasis"
        case .other:
            return "\(prefix) failed: \(String(cString: strerror(errno))) (errno \(errno))\(extra)"
        }
    }
}

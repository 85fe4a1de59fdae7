#if canImport(Glibc)
    import Glibc
#endif
import CSocketCAN

/// Whether a network interface exists and is up, read with if_nametoindex and SIOCGIFFLAGS (no
/// privileges or libsocketcan needed), so tools can say "vcan0 is down" before sending.
public struct CANInterfaceStatus: Hashable, Sendable {
    /// The interface name.
    public var name: String
    /// The kernel's interface index.
    public var index: Int32
    /// Whether the interface is administratively up (IFF_UP).
    public var isUp: Bool
    /// Whether the link is running (IFF_RUNNING); vcan reports this once up.
    public var isRunning: Bool

    /// Reads the status of `name`.
    /// - Throws: ``SocketCANError`` with `.noSuchInterface` if it does not exist.
    public init(interface name: String) throws(SocketCANError) {
        let calls = SystemCalls()
        self.index = try calls.interfaceIndex(name)
        var flags: Int32 = 0
        _ = try calls.run(.interfaceFlags, interface: name) { csocketcan_interface_flags(name, &flags) }
        self.name = name
        self.isUp = flags & Int32(IFF_UP) != 0
        self.isRunning = flags & Int32(IFF_RUNNING) != 0
    }
}

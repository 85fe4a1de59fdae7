import SocketCAN

/// What became of one frame handed to the bus.
public enum FrameSendResult: Hashable, Sendable {
    /// The kernel took the frame.
    case sent
    /// The driver's transmit queue is full (ENOBUFS): the frame is dropped, the socket stays open.
    case transmitQueueFull
    /// No socket is open (the interface is down or gone): the frame was not attempted.
    case interfaceDown
    /// The socket failed (interface down, vanished, …) and has been closed; the frame is dropped.
    case lost(SocketCANError)
    /// The frame cannot be put on the bus (identifier or payload out of range); it is dropped.
    case unencodable(String)
}

/// The error frames a sink had waiting, and whether reading them found the socket broken.
public struct BusErrorRead: Hashable, Sendable {
    /// The controller's events, in the order they arrived.
    public var events: [CANErrorEvent]
    /// The failure that ended the read: the socket is no longer usable.
    public var lost: SocketCANError?

    /// `events` read, then `lost` when the socket failed.
    public init(events: [CANErrorEvent] = [], lost: SocketCANError? = nil) {
        self.events = events
        self.lost = lost
    }
}

/// Where the daemon's frames go: one open CAN socket, or a recording fake in tests.
///
/// Both calls never block: a full queue is reported at once, and error frames are only those
/// already waiting.
public protocol FrameSink: AnyObject {
    /// Sends `frame` without blocking.
    func send(_ frame: CANFrame) -> FrameSendResult
    /// Reads at most `limit` waiting error frames, decoded, without blocking.
    func readErrorEvents(limit: Int) -> BusErrorRead
}

/// Opens ``FrameSink``s: the SocketCAN implementation checks that the interface is up, opens a
/// raw socket and subscribes it to error frames.
public protocol FrameSinkOpener {
    /// A sink on `interface`.
    /// - Throws: ``SocketCANError`` when the interface is down, missing or not usable.
    func open(interface: String) throws(SocketCANError) -> any FrameSink
}

import SocketCAN

/// The ``FrameSink`` on a real raw CAN socket: sends with `MSG_DONTWAIT` and reads the
/// controller's error frames (the socket receives no data frames).
public final class SocketCANFrameSink: FrameSink {
    /// The socket.
    public let socket: CANSocket

    /// A sink on `socket` as given (its filters and error-frame subscription are left alone).
    public init(_ socket: consuming CANSocket) {
        self.socket = socket
    }

    /// Sends `frame` with ``CANSocket/sendNonBlocking(_:)``; ENOBUFS is a full queue, any other
    /// failure loses the socket.
    public func send(_ frame: CANFrame) -> FrameSendResult {
        do {
            try socket.sendNonBlocking(frame)
            return .sent
        } catch  where error.code == .transmitQueueFull {
            return .transmitQueueFull
        } catch {
            return .lost(error)
        }
    }

    /// Polls without waiting and decodes each waiting error frame.
    public func readErrorEvents(limit: Int) -> BusErrorRead {
        var read = BusErrorRead()
        for _ in 0..<max(0, limit) {
            do {
                let received = try socket.receive(timeoutMilliseconds: 0)
                read.events += CANErrorEvent.decode(received.frame)
            } catch  where error.code == .timedOut {
                break
            } catch {
                read.lost = error
                break
            }
        }
        return read
    }
}

/// Opens ``SocketCANFrameSink``s: only on an interface that is up, with no data-frame filter
/// and every class of error frame subscribed.
public struct SocketCANFrameSinkOpener: FrameSinkOpener {
    /// An opener of real sockets.
    public init() {}

    /// A sink on `interface`.
    /// - Throws: ``SocketCANError`` `.networkDown` when the interface is down, or what opening fails with.
    public func open(interface: String) throws(SocketCANError) -> any FrameSink {
        let status = try CANInterfaceStatus(interface: interface)
        guard status.isUp else {
            throw SocketCANError(errno: 0, call: "status", interface: interface, code: .networkDown)
        }
        let opened = try CANSocket(interface: interface)
        try opened.setFilters([])  // receive no data frames, only the error frames below
        try opened.subscribeToErrorFrames()
        return SocketCANFrameSink(opened)
    }
}

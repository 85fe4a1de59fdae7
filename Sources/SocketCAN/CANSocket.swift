#if canImport(Glibc)
    import Glibc
#endif
import CSocketCAN

/// A frame received from the kernel, with where and when it arrived.
public struct ReceivedCANFrame: Hashable, Sendable {
    /// The frame.
    public var frame: CANFrame
    /// The name of the interface the socket is bound to.
    public var interface: String
    /// The kernel receive time (SO_TIMESTAMP) in microseconds since the Unix epoch, or nil if the
    /// kernel attached none.
    public var timestampMicroseconds: Int64?
    /// Frames the kernel dropped on this socket since it was opened because its receive queue
    /// was full (a reader slower than the bus; SO_RXQ_OVFL), as of this frame's arrival; nil if
    /// the kernel attached no count.
    public var kernelDropCount: UInt32? = nil
}

/// A receive filter: a frame passes when `(frame id & mask) == (identifier & mask)`; the frame
/// format (standard/extended) must always match. With `inverted`, frames that match are dropped.
public struct CANFilter: Hashable, Sendable {
    /// The identifier to compare against.
    public var identifier: CANIdentifier
    /// Which identifier bits to compare (default: all of them).
    public var mask: UInt32
    /// Pass frames that do NOT match instead.
    public var inverted: Bool

    /// Creates a filter.
    public init(identifier: CANIdentifier, mask: UInt32 = 0x1FFF_FFFF, inverted: Bool = false) {
        self.identifier = identifier
        self.mask = mask
        self.inverted = inverted
    }

    var kernelFilter: can_filter {
        var id = identifier.value | (identifier.isExtended ? CAN_EFF_FLAG : 0)
        if inverted { id |= CAN_INV_FILTER }
        return can_filter(can_id: id, can_mask: (mask & CAN_EFF_MASK) | CAN_EFF_FLAG | CAN_RTR_FLAG)
    }
}

/// A raw CAN socket bound to one interface.
///
/// It is `~Copyable` so exactly one owner holds the file descriptor: it is closed exactly once, by
/// ``close()`` or when the value goes out of scope, and can never be used after closing. Because
/// ownership is unique it is honestly `Sendable` (it can move to another task, not be shared).
public struct CANSocket: ~Copyable, Sendable {
    /// The interface name this socket is bound to.
    public let interface: String
    private var descriptor: Int32
    private let calls: SystemCalls

    /// Opens a raw CAN socket and binds it to `interface` (e.g. `"vcan0"`).
    /// - Throws: ``SocketCANError`` — `.noSuchInterface` if it does not exist, `.noCANSupport` if the
    ///   kernel lacks CAN, `.permissionDenied`.
    public init(interface: String) throws(SocketCANError) {
        try self.init(interface: interface, calls: SystemCalls())
    }

    init(interface: String, calls: SystemCalls) throws(SocketCANError) {
        let index = try calls.interfaceIndex(interface)
        let fd = try calls.run(.socket, interface: interface) { csocketcan_open_raw() }
        do {
            var on: Int32 = 1
            _ = try calls.run(.setsockopt, interface: interface) {
                setsockopt(fd, SOL_SOCKET, SO_TIMESTAMP, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            _ = try calls.run(.setsockopt, interface: interface) {
                setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            _ = try calls.run(.bind, interface: interface) { csocketcan_bind(fd, index) }
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
        self.interface = interface
        self.descriptor = fd
        self.calls = calls
    }

    /// Wraps an already open descriptor (tests use a socketpair to run without a CAN kernel).
    init(adopting descriptor: Int32, interface: String, calls: SystemCalls) {
        self.interface = interface
        self.descriptor = descriptor
        self.calls = calls
    }

    deinit { if descriptor >= 0 { _ = Glibc.close(descriptor) } }

    /// Closes the socket now, reporting a failure (deinit closes silently).
    public consuming func close() throws(SocketCANError) {
        let fd = descriptor
        descriptor = -1  // deinit, which runs at the end of this consuming call, must not close again
        _ = try calls.run(.close, interface: interface) { Glibc.close(fd) }
    }

    /// Sends a frame, waiting while the kernel's queue is full unless the driver reports ENOBUFS.
    /// - Throws: `.transmitQueueFull`, `.networkDown`, …
    public func send(_ frame: CANFrame) throws(SocketCANError) {
        try transmit(frame, flags: 0)
    }

    /// Sends a frame without blocking. A full transmit queue throws `.transmitQueueFull` so the
    /// caller can retry later or count the frame as dropped.
    public func sendNonBlocking(_ frame: CANFrame) throws(SocketCANError) {
        try transmit(frame, flags: Int32(MSG_DONTWAIT))
    }

    private func transmit(_ frame: CANFrame, flags: Int32) throws(SocketCANError) {
        var raw = frame.kernelFrame
        let size = MemoryLayout<can_frame>.size
        let sent = try calls.run(.send, interface: interface) {
            Glibc.send(descriptor, &raw, size, flags)
        }
        guard sent == size else {
            throw SocketCANError(errno: EIO, call: "send", interface: interface)
        }
    }

    /// Waits up to `timeoutMilliseconds` (negative: forever) for a frame.
    /// - Throws: `.timedOut` if none arrived; `.networkDown` etc. from the kernel.
    public func receive(timeoutMilliseconds: Int32) throws(SocketCANError) -> ReceivedCANFrame {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = try calls.run(.poll, interface: interface) { Glibc.poll(&waiting, 1, timeoutMilliseconds) }
        guard ready > 0 else {
            throw SocketCANError(errno: 0, call: "receive", interface: interface, code: .timedOut)
        }
        var raw = can_frame()
        var index: Int32 = 0
        var stamp = timeval()
        var hasStamp: Int32 = 0
        var dropped: UInt32 = 0
        var hasDropped: Int32 = 0
        let count = try calls.run(.recvmsg, interface: interface) {
            csocketcan_receive(descriptor, &raw, &index, &stamp, &hasStamp, &dropped, &hasDropped)
        }
        guard count == MemoryLayout<can_frame>.size, let frame = CANFrame(kernelFrame: raw) else {
            throw SocketCANError(errno: EBADMSG, call: "recvmsg", interface: interface)
        }
        let micros = hasStamp != 0 ? Int64(stamp.tv_sec) * 1_000_000 + Int64(stamp.tv_usec) : nil
        return ReceivedCANFrame(
            frame: frame, interface: interface, timestampMicroseconds: micros,
            kernelDropCount: hasDropped != 0 ? dropped : nil)
    }

    /// Replaces the receive filters; an empty list receives nothing.
    public func setFilters(_ filters: [CANFilter]) throws(SocketCANError) {
        let kernel = filters.map(\.kernelFilter)
        let size = socklen_t(MemoryLayout<can_filter>.stride * kernel.count)
        _ = try kernel.withUnsafeBufferPointer { (buffer) throws(SocketCANError) -> Int32 in
            try calls.run(.setsockopt, interface: interface) {
                setsockopt(descriptor, csocketcan_sol_can_raw(), Int32(CAN_RAW_FILTER), buffer.baseAddress, size)
            }
        }
    }

    /// Subscribes to kernel error frames of the given `CAN_ERR_*` classes (default: all).
    public func subscribeToErrorFrames(classes: UInt32 = CAN_ERR_MASK) throws(SocketCANError) {
        var mask = classes
        _ = try calls.run(.setsockopt, interface: interface) {
            setsockopt(
                descriptor, csocketcan_sol_can_raw(), Int32(CAN_RAW_ERR_FILTER), &mask,
                socklen_t(MemoryLayout<UInt32>.size))
        }
    }
}

extension CANFrame {
    /// The kernel's `struct can_frame` for this frame.
    var kernelFrame: can_frame {
        var raw = can_frame()
        var id = identifier.value
        if identifier.isExtended { id |= CAN_EFF_FLAG }
        if isRemoteTransmissionRequest { id |= CAN_RTR_FLAG }
        if isErrorFrame { id = (identifier.value & CAN_ERR_MASK) | CAN_ERR_FLAG }
        raw.can_id = id
        withUnsafeMutableBytes(of: &raw) { bytes in
            bytes[4] = dataLengthCode
            for i in 0..<dataCount { bytes[8 + i] = dataByte(i) }
        }
        return raw
    }

    /// Decodes a kernel `struct can_frame`; nil if its length code is above 8.
    init?(kernelFrame raw: can_frame) {
        var copy = raw
        let (dlc, payload): (UInt8, [UInt8]) = withUnsafeBytes(of: &copy) { bytes in
            (bytes[4], Array(bytes[8..<16]))
        }
        guard dlc <= 8 else { return nil }
        let id = raw.can_id
        do {
            if id & CAN_ERR_FLAG != 0 {
                try self.init(errorClass: id & CAN_ERR_MASK, data: Array(payload.prefix(Int(dlc))))
            } else {
                let extended = id & CAN_EFF_FLAG != 0
                guard
                    let identifier = extended
                        ? CANIdentifier(extended: id & CAN_EFF_MASK)
                        : CANIdentifier(standard: id & CAN_SFF_MASK)
                else { return nil }
                if id & CAN_RTR_FLAG != 0 {
                    try self.init(remoteRequest: identifier, length: dlc)
                } else {
                    try self.init(identifier: identifier, data: Array(payload.prefix(Int(dlc))))
                }
            }
        } catch {
            return nil
        }
    }
}

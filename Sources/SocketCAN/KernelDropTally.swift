/// Follows a socket's SO_RXQ_OVFL count (``ReceivedCANFrame/kernelDropCount``) from frame to frame:
/// how many frames the kernel dropped since the last count a frame carried.
public struct KernelDropTally: Sendable, Equatable {
    /// The socket's count as of the last frame that carried one (a new socket's starts at 0).
    public private(set) var total: UInt32 = 0

    /// A tally for a newly opened socket.
    public init() {}

    /// Frames the kernel dropped before `frame` since the previous count: 0 when `frame` carries
    /// no count or the same one. The kernel's counter wraps at 2^32.
    public mutating func newDrops(before frame: ReceivedCANFrame) -> Int {
        guard let count = frame.kernelDropCount else { return 0 }
        defer { total = count }
        return Int(count &- total)
    }
}

import ADASISv2

/// How urgently a frame must go out; lower goes first.
public enum FramePriority: Int, Hashable, Sendable, Comparable, CaseIterable {
    /// POSITION and META-DATA.
    case vehicle = 0
    /// Horizon content near the vehicle.
    case nearHorizon = 1
    /// Horizon content farther ahead.
    case farHorizon = 2
    /// Repetitions of content already sent.
    case retransmission = 3

    public static func < (lhs: FramePriority, rhs: FramePriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether this is the near or the far horizon's queue.
    var isHorizon: Bool { self == .nearHorizon || self == .farHorizon }
}

/// One CAN frame the provider wants on the bus now.
public struct ProviderFrame: Hashable, Sendable {
    /// Time it was released, seconds on the drive's time line.
    public var time: Double
    /// CAN identifier.
    public var identifier: UInt32
    /// 29-bit identifier.
    public var isExtended: Bool
    /// The 8 payload bytes as one word, byte 0 in the most significant position (``PayloadWord``):
    /// a value, so a frame allocates nothing.
    public var payload: UInt64
    /// The 8 payload bytes, byte 0 first.
    public var data: [UInt8] { PayloadWord.bytes(payload) }
    /// The message the bytes encode (cyclic counter filled in).
    public var message: ADASISMessage
    /// Its priority class.
    public var priority: FramePriority
}

/// What the provider did, for logs and metrics.
public struct ProviderCounters: Hashable, Sendable {
    /// Frames released, by message type.
    public var framesSent: [MessageType: Int] = [:]
    /// Frames dropped because the bus budget's queue overflowed, by message type.
    public var framesDroppedByBudget: [MessageType: Int] = [:]
    /// Frames the sender could not transmit (TX queue full, interface down), by message type.
    public var framesDroppedBySender: [MessageType: Int] = [:]
    /// Retransmissions skipped because the tick's budget was used up (not a fault).
    public var retransmissionsSkipped = 0
    /// Content sent again with Update = 1 because it changed.
    public var updates = 0
    /// Side paths announced as "stub only" because no path index was free for them: all 56 in use,
    /// or, for a path of probability 0, only those kept for likelier paths
    /// (``ProviderConfiguration/indicesKeptFromZeroProbabilityPaths``).
    public var pathIndicesExhausted = 0
    /// New main paths started (first horizon, jumps, recoveries).
    public var newMainPaths = 0
    /// Messages that failed to encode (a provider bug; never expected).
    public var encodingFailures = 0
    /// Times the country or region under the vehicle changed, each sent at once as META-DATA.
    public var metaDataPlaceChanges = 0

    /// Creates zeroed counters.
    public init() {}

    /// All frames released.
    public var totalSent: Int { framesSent.values.reduce(0, +) }
}

import ADASISProvider
import SocketCAN

/// The run loop's side of the CAN bus: holds the open ``FrameSink`` (if any), opens one when
/// the core says an attempt is due, reads the controller's error frames, and sends each tick's
/// frames without ever blocking, reporting every outcome to the ``DaemonCore``.
public final class CANTransmitter {
    /// The interface name.
    public let interface: String
    /// Opens sinks (real sockets, or a fake in tests).
    public let opener: any FrameSinkOpener
    /// Error frames read at most per tick.
    public let errorFramesPerTick: Int
    private var sink: (any FrameSink)?

    /// A transmitter for `interface`; nothing is opened before ``maintain(_:at:)``.
    public init(interface: String, opener: any FrameSinkOpener, errorFramesPerTick: Int = 64) {
        self.interface = interface
        self.opener = opener
        self.errorFramesPerTick = errorFramesPerTick
    }

    /// Whether a sink is open.
    public var isOpen: Bool { sink != nil }

    /// Once per tick: while closed, opens the sink when `core` says an attempt is due; while
    /// open, reads the waiting error frames. Returns the core's effects.
    public func maintain(_ core: inout DaemonCore, at now: Double) -> [DaemonEffect] {
        guard let open = sink else {
            guard core.busOpenAttemptDue(at: now) else { return [] }
            do {
                sink = try opener.open(interface: interface)
                return core.busChanged(.opened, at: now)
            } catch {
                return core.busChanged(.openFailed(error), at: now)
            }
        }
        let read = open.readErrorEvents(limit: errorFramesPerTick)
        var effects: [DaemonEffect] = []
        for event in read.events { effects += core.busChanged(.controller(event), at: now) }
        if let lost = read.lost {
            sink = nil
            effects += core.busChanged(.lost(lost), at: now)
        }
        return effects
    }

    /// Sends `frames` in order without blocking; every result goes to `core`, which counts and
    /// reports the dropped ones. A lost sink is closed and the remaining frames dropped.
    public func send(_ frames: [ProviderFrame], core: inout DaemonCore) -> [DaemonEffect] {
        var effects: [DaemonEffect] = []
        for frame in frames {
            let result = transmit(frame)
            if case .lost = result { sink = nil }
            effects += core.record(result, of: frame)
        }
        return effects
    }

    /// Closes the sink (on shutdown or before switching interfaces).
    public func close() { sink = nil }

    private func transmit(_ frame: ProviderFrame) -> FrameSendResult {
        guard let sink else { return .interfaceDown }
        guard let canFrame = frame.canFrame else {
            return .unencodable("identifier \(frame.identifier) out of range for \(frame.isExtended ? 29 : 11) bits")
        }
        return sink.send(canFrame)
    }
}

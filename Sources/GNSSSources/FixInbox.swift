import GNSS
import Synchronization

/// The hand-over between the GNSS reader thread and the main loop: fixes with the monotonic
/// time they arrived at, the source's connection state, and the request to stop.
public final class FixInbox: Sendable {
    /// One fix as it arrived.
    public struct Arrival: Hashable, Sendable {
        /// The fix (receiver time).
        public var fix: GNSSFix
        /// Monotonic seconds when the reader got it.
        public var receivedAt: Double

        /// `fix` as it arrived at monotonic time `receivedAt`.
        public init(fix: GNSSFix, receivedAt: Double) {
            self.fix = fix
            self.receivedAt = receivedAt
        }
    }

    /// The source's state as the reader last reported it.
    public struct SourceState: Hashable, Sendable {
        /// gpsd connected, or the NMEA source open.
        public var connected = false
        /// Reconnections to gpsd after the first connection.
        public var reconnects = 0
        /// Records of the source that could not be used (gpsd lines, NMEA sentences), by reason,
        /// since the source started.
        public var skipped: [String: Int] = [:]
        /// Fixes dropped unprocessed because the inbox was full (the main loop fell behind),
        /// since the source started.
        public var fixesDropped = 0
        /// Monotonic seconds when the newest fix still waiting in the inbox arrived (`nil`: none
        /// waits): fixes that arrived but were not yet worked on are not a lost GNSS.
        public var newestWaitingArrival: Double?

        /// A state: `connected` (gpsd connected or the NMEA source open) after `reconnects`
        /// reconnections, with `skipped` records by reason, `fixesDropped` fixes dropped, and the
        /// newest waiting fix's arrival.
        public init(
            connected: Bool = false, reconnects: Int = 0, skipped: [String: Int] = [:], fixesDropped: Int = 0,
            newestWaitingArrival: Double? = nil
        ) {
            self.connected = connected
            self.reconnects = reconnects
            self.skipped = skipped
            self.fixesDropped = fixesDropped
            self.newestWaitingArrival = newestWaitingArrival
        }
    }

    private struct State {
        var arrivals: [Arrival] = []
        var source = SourceState()
        var stopRequested = false
        var dropped = 0
    }

    private let state = Mutex(State())
    /// Fixes kept at most while the main loop does not collect them (the oldest are dropped).
    public let capacity: Int

    /// An empty inbox holding at most `capacity` fixes.
    public init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// Called by the reader: queues a fix unless a stop was requested; false means stop reading.
    @discardableResult
    public func deliver(_ fix: GNSSFix, receivedAt: Double) -> Bool {
        state.withLock { state in
            guard !state.stopRequested else { return false }
            if state.arrivals.count >= capacity {
                state.arrivals.removeFirst()
                state.dropped += 1
            }
            state.arrivals.append(Arrival(fix: fix, receivedAt: receivedAt))
            return true
        }
    }

    /// Called by the reader: records the source's state.
    public func report(_ source: SourceState) {
        state.withLock { $0.source = source }
    }

    /// Called by the main loop: takes the oldest queued fix, if any.
    public func take() -> Arrival? {
        state.withLock { state in state.arrivals.isEmpty ? nil : state.arrivals.removeFirst() }
    }

    /// Called by the main loop: takes every queued fix, oldest first.
    public func collect() -> [Arrival] {
        state.withLock { state in
            defer { state.arrivals.removeAll(keepingCapacity: true) }
            return state.arrivals
        }
    }

    /// The source's state as the reader reported it, with the fixes this inbox dropped and when
    /// the newest fix waiting in it arrived.
    public var source: SourceState {
        state.withLock { state in
            var source = state.source
            source.fixesDropped = state.dropped
            source.newestWaitingArrival = state.arrivals.last?.receivedAt
            return source
        }
    }

    /// Asks the reader to stop; it notices within about a second.
    public func requestStop() { state.withLock { $0.stopRequested = true } }

    /// Whether a stop was requested.
    public var stopRequested: Bool { state.withLock { $0.stopRequested } }
}

import GNSS
import Synchronization

/// The hand-over between the GNSS reader thread and the main loop: fixes with the monotonic
/// time they arrived at, the source's connection state, and the request to stop.
final class FixInbox: Sendable {
    /// One fix as it arrived.
    struct Arrival: Hashable, Sendable {
        /// The fix (receiver time).
        var fix: GNSSFix
        /// Monotonic seconds when the reader got it.
        var receivedAt: Double
    }

    /// The source's state as the reader last reported it.
    struct SourceState: Hashable, Sendable {
        /// gpsd connected, or the NMEA source open.
        var connected = false
        /// Reconnections to gpsd after the first connection.
        var reconnects = 0
    }

    private struct State {
        var arrivals: [Arrival] = []
        var source = SourceState()
        var stopRequested = false
        var dropped = 0
    }

    private let state = Mutex(State())
    /// Fixes kept at most while the main loop does not collect them (the oldest are dropped).
    let capacity: Int

    /// An empty inbox holding at most `capacity` fixes.
    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// Called by the reader: queues a fix unless a stop was requested; false means stop reading.
    @discardableResult
    func deliver(_ fix: GNSSFix, receivedAt: Double) -> Bool {
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
    func report(_ source: SourceState) {
        state.withLock { $0.source = source }
    }

    /// Called by the main loop: takes every queued fix, oldest first.
    func collect() -> [Arrival] {
        state.withLock { state in
            defer { state.arrivals.removeAll(keepingCapacity: true) }
            return state.arrivals
        }
    }

    /// The source's state.
    var source: SourceState { state.withLock { $0.source } }

    /// Asks the reader to stop; it notices within about a second.
    func requestStop() { state.withLock { $0.stopRequested = true } }

    /// Whether a stop was requested.
    var stopRequested: Bool { state.withLock { $0.stopRequested } }
}

/// Puts the daemon's monotonic clock on the GNSS receiver's time line.
///
/// The provider compares tick times with fix times (dead reckoning, PositionAge, staleness), so
/// both must be on one time line. We choose the receiver's: a fix keeps its own time (UTC from
/// the receiver), and tick times are `monotonic + offset`. The offset is set by the first fix
/// (its time minus the monotonic time it was received at) and afterwards only moves forward
/// when a fix arrives with less delay than any before (so no fix ever lies in the future of the
/// tick that follows it). A fix that disagrees with the time line by more than
/// ``resynchroniseAfter`` seconds (receiver clock jump, replayed log restarting) re-anchors it;
/// the caller then starts a fresh pipeline, because the provider's schedules assume time only
/// moves forward. Before the first fix the offset is 0 (tick times are plain monotonic seconds),
/// and the wall clock is never read.
///
/// One disagreement is not a jump: a fix newer than the fix before it that arrives late (a
/// transport stall — gpsd or the serial port held fixes back, or the daemon was descheduled) is
/// ``Adjustment/delayed(by:)``, and the time line stays, because the queued fixes that follow it
/// catch up. Only when fixes keep arriving that late over more than ``resynchroniseAfter`` seconds
/// of receiver time is it a receiver clock stepping back, and the time line is re-anchored then.
public struct ReceiverTimeline: Hashable, Sendable {
    /// What observing a fix did to the time line.
    public enum Adjustment: Hashable, Sendable {
        /// Nothing, or a small forward correction.
        case none
        /// The first fix anchored the time line.
        case anchored
        /// The fix disagreed by `jump` seconds (positive: forward); the time line was re-anchored.
        case resynchronised(jump: Double)
        /// The fix is newer than the one before it but arrived `by` seconds later than the time
        /// line allows (a transport stall); the time line was kept.
        case delayed(by: Double)
    }

    /// Disagreement between a fix and the time line, seconds, beyond which it is re-anchored.
    public let resynchroniseAfter: Double
    /// Receiver time minus monotonic time; `nil` before the first fix.
    public private(set) var offset: Double?
    /// The time of the last fix observed.
    private var lastFixTime: Double?
    /// The time of the first fix of the current run of late fixes, if one is running.
    private var delayedSince: Double?

    /// A time line not yet anchored.
    public init(resynchroniseAfter: Double = 2) {
        self.resynchroniseAfter = resynchroniseAfter
    }

    /// The time line's time at monotonic time `monotonic`.
    public func time(atMonotonic monotonic: Double) -> Double { monotonic + (offset ?? 0) }

    /// Takes a fix with receiver time `fixTime` that arrived at monotonic time `receivedAt`.
    public mutating func observe(fixTime: Double, receivedAt: Double) -> Adjustment {
        let candidate = fixTime - receivedAt
        let previousFixTime = lastFixTime
        lastFixTime = fixTime
        guard let current = offset else {
            offset = candidate
            return .anchored
        }
        let disagreement = candidate - current
        if disagreement < -resynchroniseAfter, let previousFixTime, fixTime > previousFixTime {
            let since = delayedSince ?? fixTime
            if fixTime - since <= resynchroniseAfter {
                delayedSince = since
                return .delayed(by: -disagreement)
            }
        }
        delayedSince = nil
        if abs(disagreement) > resynchroniseAfter {
            offset = candidate
            return .resynchronised(jump: disagreement)
        }
        if disagreement > 0 { offset = candidate }
        return .none
    }
}

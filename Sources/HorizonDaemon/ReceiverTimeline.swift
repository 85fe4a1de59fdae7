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
public struct ReceiverTimeline: Hashable, Sendable {
    /// What observing a fix did to the time line.
    public enum Adjustment: Hashable, Sendable {
        /// Nothing, or a small forward correction.
        case none
        /// The first fix anchored the time line.
        case anchored
        /// The fix disagreed by `jump` seconds (positive: forward); the time line was re-anchored.
        case resynchronised(jump: Double)
    }

    /// Disagreement between a fix and the time line, seconds, beyond which it is re-anchored.
    public let resynchroniseAfter: Double
    /// Receiver time minus monotonic time; `nil` before the first fix.
    public private(set) var offset: Double?

    /// A time line not yet anchored.
    public init(resynchroniseAfter: Double = 2) {
        self.resynchroniseAfter = resynchroniseAfter
    }

    /// The time line's time at monotonic time `monotonic`.
    public func time(atMonotonic monotonic: Double) -> Double { monotonic + (offset ?? 0) }

    /// Takes a fix with receiver time `fixTime` that arrived at monotonic time `receivedAt`.
    public mutating func observe(fixTime: Double, receivedAt: Double) -> Adjustment {
        let candidate = fixTime - receivedAt
        guard let current = offset else {
            offset = candidate
            return .anchored
        }
        let disagreement = candidate - current
        if abs(disagreement) > resynchroniseAfter {
            offset = candidate
            return .resynchronised(jump: disagreement)
        }
        if disagreement > 0 { offset = candidate }
        return .none
    }
}

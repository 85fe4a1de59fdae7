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
/// A fix can also disagree by arriving late: newer than every fix before it, but held up on its
/// way (gpsd or the reader descheduled on a loaded head unit; the 1 M-fix soak saw stalls of
/// 2.0–2.4 s). Its own time is right, so it is ``Adjustment/delayed(seconds:)`` and the time line
/// stays. A stall ends as soon as its fixes have come through (they arrive together), and the
/// next fix is on time again; when fixes are still that late ``resynchroniseAfter`` seconds after
/// the first of them, the receiver's clock went back, and the time line is re-anchored then.
public struct ReceiverTimeline: Hashable, Sendable {
    /// What observing a fix did to the time line.
    public enum Adjustment: Hashable, Sendable {
        /// Nothing, or a small forward correction.
        case none
        /// The first fix anchored the time line.
        case anchored
        /// The fix disagreed by `jump` seconds (positive: forward); the time line was re-anchored.
        case resynchronised(jump: Double)
        /// The fix, newer than every fix before it, arrived `seconds` later than the time line
        /// expects (more than ``resynchroniseAfter``): held up on its way. The time line stays.
        case delayed(seconds: Double)
    }

    /// Disagreement between a fix and the time line, seconds, beyond which it is re-anchored.
    public let resynchroniseAfter: Double
    /// Receiver time minus monotonic time; `nil` before the first fix.
    public private(set) var offset: Double?
    /// The newest fix time observed.
    private var newestFixTime: Double?
    /// When (monotonic) the first of the late fixes since the last one on time arrived.
    private var lateSince: Double?

    /// A time line not yet anchored.
    public init(resynchroniseAfter: Double = 2) {
        self.resynchroniseAfter = resynchroniseAfter
    }

    /// Whether the last fix observed was ``Adjustment/delayed(seconds:)`` (a stall under way).
    public var isLate: Bool { lateSince != nil }

    /// The time line's time at monotonic time `monotonic`.
    public func time(atMonotonic monotonic: Double) -> Double { monotonic + (offset ?? 0) }

    /// Takes a fix with receiver time `fixTime` that arrived at monotonic time `receivedAt`.
    public mutating func observe(fixTime: Double, receivedAt: Double) -> Adjustment {
        let candidate = fixTime - receivedAt
        let isNewest = newestFixTime.map { fixTime > $0 } ?? true
        newestFixTime = max(newestFixTime ?? fixTime, fixTime)
        guard let current = offset else {
            offset = candidate
            return .anchored
        }
        let disagreement = candidate - current
        if abs(disagreement) > resynchroniseAfter {
            let lateFor = lateSince.map { receivedAt - $0 } ?? 0
            if disagreement < 0, isNewest, lateFor < resynchroniseAfter {
                if lateSince == nil { lateSince = receivedAt }
                return .delayed(seconds: -disagreement)
            }
            lateSince = nil
            offset = candidate
            newestFixTime = fixTime  // a clock gone back starts the receiver's time over
            return .resynchronised(jump: disagreement)
        }
        lateSince = nil
        if disagreement > 0 { offset = candidate }
        return .none
    }
}

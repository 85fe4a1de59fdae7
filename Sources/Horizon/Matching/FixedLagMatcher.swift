import GNSS

/// Fixed-lag smoothing over ``OnlineMapMatcher``: the match of each fix is decided only after the
/// `lag` fixes that follow it, as the state the best Viterbi path ending at the newest fix passes
/// through (the back-pointers of the last `lag + 1` columns), placed at its along-track estimate
/// smoothed backwards from the newest fix (Rauch–Tung–Striebel, ``AlongTrackEstimate/smoothed(by:nextFiltered:)``).
///
/// The online matcher answers for the present with the end of its best path; a junction crossed
/// between two fixes is often clear only a fix or two later, when the path has to explain where the
/// vehicle went. This matcher trades that latency for accuracy: its result for a fix comes `lag`
/// fixes late, so it suits recording and evaluation, not the horizon of a moving vehicle
/// (`adasis match --lag`; README, fidelity). With `lag` 0 it gives the online results.
///
/// A result that did not come from an HMM step (off road, unknown) is passed on unchanged; a
/// position held while the vehicle stood still, over a fix without candidates, or coasted over an
/// outlier (``MatcherConfiguration/outlierGateSigmas``), follows the revision of the column it was
/// held from; a revised position keeps the lower of its online confidence and the filtered
/// posterior of its revised state. Deterministic, like the matcher it wraps.
public final class FixedLagMatcher {
    /// The online matcher the results come from.
    public let matcher: OnlineMapMatcher
    /// Fixes a result waits for before it is final.
    public let lag: Int

    private var pending: [(result: MatchResult, column: Int?)] = []

    /// Smooths `matcher`'s results over `lag` fixes (negative counts as 0). `matcher` should be
    /// fresh and used only through this object from now on.
    public init(matcher: OnlineMapMatcher, lag: Int) {
        self.matcher = matcher
        self.lag = max(0, lag)
        matcher.smoothingWindow.capacity = self.lag + 1
    }

    /// Matches one fix, given in time order, and returns the results that became final: the fix
    /// `lag` fixes back, or none while the first `lag` fixes are pending.
    ///
    /// - Throws: what ``OnlineMapMatcher/match(_:)`` throws; the pending results are kept.
    public func match(_ fix: GNSSFix) throws -> [MatchResult] {
        let result = try matcher.match(fix)
        let column = result.state.position == nil ? nil : matcher.smoothingWindow.newestSerial
        pending.append((result, column))
        try revise()
        guard pending.count > lag else { return [] }
        let ready = pending.prefix(pending.count - lag).map(\.result)
        pending.removeFirst(pending.count - lag)
        return ready
    }

    /// The pending results, as final as they will get (end of the drive).
    public func finish() -> [MatchResult] {
        defer { pending.removeAll() }
        return pending.map(\.result)
    }

    /// Returns the pending results (``finish()``) and forgets all history: the next fix is matched
    /// as the first one.
    public func reset() -> [MatchResult] {
        let flushed = finish()
        matcher.reset()
        return flushed
    }

    /// Replaces the position of every pending on-road result whose column is still in the window by
    /// the state of the current best path there.
    private func revise() throws {
        let window = matcher.smoothingWindow
        // Newest first: each older state's estimate is corrected by the smoothed one after it.
        var later: (smoothed: AlongTrackEstimate, filtered: AlongTrackEstimate)?
        for step in window.bestPath() {
            let column = window.columns[step.column]
            let filtered = column.estimates[step.state]
            var estimate = filtered
            if let later { estimate = filtered.smoothed(by: later.smoothed, nextFiltered: later.filtered) }
            later = (estimate, filtered)
            guard pending.contains(where: { $0.column == column.serial }) else { continue }
            let position = try matcher.smoothedPosition(column: step.column, state: step.state, estimate: estimate)
            for k in pending.indices where pending[k].column == column.serial {
                if case .onRoad(let old) = pending[k].result.state {
                    var revised = position
                    revised.confidence = min(old.confidence, position.confidence)
                    pending[k].result.state = .onRoad(revised)
                }
            }
        }
    }
}

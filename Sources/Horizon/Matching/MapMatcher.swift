import GNSS

/// Places GNSS fixes on the road graph, one fix at a time, in time order.
///
/// Two implementations: ``OnlineMapMatcher`` (the hidden-Markov-model matcher the product uses)
/// and ``NearestRoadMatcher`` (the nearest-road baseline it is measured against).
public protocol MapMatcher: AnyObject {
    /// Matches one fix. Throws ``MatchingError`` for a fix with invalid fields, and passes road
    /// network errors through.
    func match(_ fix: GNSSFix) throws -> MatchResult
    /// Forgets all history: the next fix is matched as the first one.
    func reset()
}

extension OnlineMapMatcher: MapMatcher {}

/// The exponential schedule of waits between attempts to reach gpsd: none before the first
/// attempt, then the initial delay, doubling after each further failure up to the maximum
/// (1 s, 2 s, 4 s, 8 s, 16 s, 30 s, 30 s, … by default). A pure value: it computes delays, the
/// client does the waiting.
public struct GPSDReconnectBackoff: Hashable, Sendable {
    /// The wait after the first failed attempt.
    public private(set) var initialDelay: Duration
    /// The longest wait.
    public private(set) var maximumDelay: Duration
    /// Failed attempts since the last success.
    public private(set) var consecutiveFailures = 0

    /// Creates a schedule. A non-positive initial delay becomes 1 ms, and a maximum below the
    /// initial delay becomes the initial delay, so the schedule always makes progress.
    public init(initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30)) {
        let initial = max(initialDelay, .milliseconds(1))
        self.initialDelay = initial
        self.maximumDelay = max(maximumDelay, initial)
    }

    /// The wait before the next attempt after `failures` consecutive failures (zero for none).
    public func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        var delay = initialDelay
        for _ in 1..<min(failures, 64) {
            delay = delay * 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }

    /// The wait before the next attempt now.
    public var nextDelay: Duration { delay(afterFailures: consecutiveFailures) }

    /// Records a failed attempt and returns the wait before the next one.
    public mutating func recordFailure() -> Duration {
        consecutiveFailures += 1
        return nextDelay
    }

    /// Records a success: the next failure starts again at the initial delay.
    public mutating func reset() {
        consecutiveFailures = 0
    }
}

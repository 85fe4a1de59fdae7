import Foundation

/// The time source of the poller: what time it is and waiting for a time. Tests pass a clock they
/// move by hand, so polling is tested without sleeping.
public protocol PollingClock: Sendable {
    /// The time now.
    func now() -> Date
    /// Returns at `deadline` (or at once if it has passed); throws when the task is cancelled.
    func sleep(until deadline: Date) async throws
}

/// The system's wall clock (`Date()`) and `Task.sleep`.
public struct SystemPollingClock: PollingClock {
    /// Creates the clock.
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) } else { try Task.checkCancellation() }
    }
}

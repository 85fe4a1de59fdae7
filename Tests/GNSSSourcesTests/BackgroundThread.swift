import Foundation
import GNSSSources
import Synchronization

/// Runs a blocking body on a thread of its own: blocking calls must not occupy Swift
/// concurrency's few shared threads, which other tests need at the same time.
final class BackgroundThread: Sendable {
    private let finishedAt = Mutex<Double?>(nil)

    /// Starts `body` at once.
    init(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            body()
            finishedAt.withLock { $0 = MonotonicClock.now() }
        }
        thread.start()
    }

    /// Waits up to `timeout` seconds for the body to return; the monotonic time it returned at,
    /// or nil if it is still running.
    func wait(timeout: Double) -> Double? {
        let deadline = MonotonicClock.now() + timeout
        while true {
            if let finished = finishedAt.withLock({ $0 }) { return finished }
            if MonotonicClock.now() >= deadline { return nil }
            MonotonicClock.sleep(.milliseconds(10))
        }
    }
}

import Testing
@testable import GNSSSources

@Suite("gpsd reconnect backoff")
struct GPSDReconnectBackoffTests {
    @Test("the default schedule is 0, 1, 2, 4, 8, 16, 30, 30 s")
    func defaultSchedule() {
        var backoff = GPSDReconnectBackoff()
        #expect(backoff.nextDelay == .zero)
        let delays = (0..<8).map { _ in backoff.recordFailure() }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
        #expect(backoff.consecutiveFailures == 8)
        backoff.reset()
        #expect(backoff.nextDelay == .zero)
        #expect(backoff.recordFailure() == .seconds(1))
    }

    @Test("very many failures stay at the maximum without overflow")
    func manyFailures() {
        let backoff = GPSDReconnectBackoff()
        #expect(backoff.delay(afterFailures: 1_000_000) == .seconds(30))
        #expect(backoff.delay(afterFailures: Int.max) == .seconds(30))
    }

    @Test("custom delays; impossible values are clamped so the schedule always progresses")
    func customAndClamped() {
        let fast = GPSDReconnectBackoff(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(500))
        #expect(
            (1...5).map { fast.delay(afterFailures: $0) }
                == [100, 200, 400, 500, 500].map { Duration.milliseconds($0) })
        let zero = GPSDReconnectBackoff(initialDelay: .zero, maximumDelay: .seconds(-1))
        #expect(zero.initialDelay == .milliseconds(1))
        #expect(zero.maximumDelay == .milliseconds(1))
        #expect(zero.delay(afterFailures: 3) == .milliseconds(1))
    }
}

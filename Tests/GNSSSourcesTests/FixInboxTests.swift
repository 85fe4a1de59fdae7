import GNSS
import Testing
@testable import GNSSSources

private func fix(_ time: Double) -> GNSSFix {
    GNSSFix(time: time, latitude: 60, longitude: 25)
}

@Suite("fix inbox")
struct FixInboxTests {
    @Test("fixes are collected oldest first, once; the source's state is kept")
    func collect() {
        let inbox = FixInbox()
        #expect(inbox.deliver(fix(1), receivedAt: 10))
        #expect(inbox.deliver(fix(2), receivedAt: 11))
        inbox.report(.init(connected: true, reconnects: 3))
        #expect(inbox.collect() == [.init(fix: fix(1), receivedAt: 10), .init(fix: fix(2), receivedAt: 11)])
        #expect(inbox.collect().isEmpty)
        #expect(inbox.source == .init(connected: true, reconnects: 3))
    }

    @Test("fixes taken one at a time come oldest first; the rest wait, and still count against the capacity")
    func takeOneAtATime() {
        let inbox = FixInbox(capacity: 3)
        #expect(inbox.take() == nil)
        for time in 1...3 { inbox.deliver(fix(Double(time)), receivedAt: Double(time)) }
        #expect(inbox.take()?.fix.time == 1)
        for time in 4...5 { inbox.deliver(fix(Double(time)), receivedAt: Double(time)) }
        #expect(inbox.source.fixesDropped == 1, "2, 3 and 4 waited; 5 pushed 2 out")
        #expect(inbox.take()?.fix.time == 3)
        #expect(inbox.collect().map(\.fix.time) == [4, 5])
        #expect(inbox.take() == nil)
    }

    @Test("beyond its capacity the oldest fixes are dropped")
    func capacity() {
        let inbox = FixInbox(capacity: 3)
        for time in 1...5 { inbox.deliver(fix(Double(time)), receivedAt: Double(time)) }
        #expect(inbox.collect().map(\.fix.time) == [3, 4, 5])
    }

    @Test("the fixes dropped for want of room are counted in the source's state (issue 16, found by Tools/soak)")
    func droppedFixesAreCounted() {
        let inbox = FixInbox(capacity: 3)
        inbox.report(.init(connected: true, reconnects: 1))
        for time in 1...5 { inbox.deliver(fix(Double(time)), receivedAt: Double(time)) }
        #expect(inbox.source == .init(connected: true, reconnects: 1, fixesDropped: 2, newestWaitingArrival: 5))
        _ = inbox.collect()
        #expect(inbox.source.newestWaitingArrival == nil, "nothing waits")
        for time in 6...8 { inbox.deliver(fix(Double(time)), receivedAt: Double(time)) }
        inbox.report(.init(connected: true, reconnects: 2))  // the reader's report keeps the count
        #expect(inbox.source.fixesDropped == 2)
        inbox.deliver(fix(9), receivedAt: 9)
        #expect(inbox.source.fixesDropped == 3)
    }

    @Test("after a stop request nothing is queued and the reader is told to stop")
    func stop() {
        let inbox = FixInbox()
        #expect(!inbox.stopRequested)
        inbox.requestStop()
        #expect(inbox.stopRequested)
        #expect(!inbox.deliver(fix(1), receivedAt: 1))
        #expect(inbox.collect().isEmpty)
    }

    @Test("a reader thread and the main loop hand over every fix exactly once", .timeLimit(.minutes(1)))
    func concurrent() throws {
        let inbox = FixInbox(capacity: 10_000)
        let reader = BackgroundThread { for time in 0..<2000 { inbox.deliver(fix(Double(time)), receivedAt: 0) } }
        var collected: [Double] = []
        let deadline = MonotonicClock.now() + 30
        while collected.count < 2000 && MonotonicClock.now() < deadline { collected += inbox.collect().map(\.fix.time) }
        #expect(reader.wait(timeout: 30) != nil)
        #expect(collected == (0..<2000).map(Double.init))
    }
}

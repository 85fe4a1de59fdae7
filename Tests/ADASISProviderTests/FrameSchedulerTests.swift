import ADASISv2
import Testing
@testable import ADASISProvider

@Suite("frame scheduler")
struct FrameSchedulerTests {
    /// A retired path's waiting frames (its own content, the STUBs it opens and the STUB that
    /// opens it) never reach the bus; the other paths' frames go out unchanged.
    @Test func aRetiredPathsWaitingFramesAreDropped() {
        var scheduler = FrameScheduler(configuration: ProviderConfiguration())
        var counters = ProviderCounters()
        let waiting: [ADASISMessage] = [
            .stub(StubMessage(offset: 228, pathIndex: 8, subPathIndex: 11)),
            .stub(StubMessage(offset: 300, pathIndex: 8, subPathIndex: 12)),
            .profileShort(ProfileShortMessage(offset: 20, pathIndex: 11, profileType: .curvature, value0: 510)),
            .stub(StubMessage(offset: 61, pathIndex: 11, subPathIndex: 25)),
            .profileShort(ProfileShortMessage(offset: 40, pathIndex: 12, profileType: .curvature, value0: 511)),
        ]
        for message in waiting { scheduler.enqueue(message, priority: .farHorizon, counters: &counters) }
        scheduler.discardFrames(ofPath: 11)
        let sent = scheduler.release(at: 0, counters: &counters).map(\.message)
        #expect(sent.count == 2)
        #expect(sent.allSatisfy { $0.pathPlace?.pathIndex != 11 })
        #expect(
            !sent.contains {
                if case .stub(let stub) = $0 { return stub.subPathIndex == 11 }
                return false
            })
        #expect(sent.compactMap(\.pathPlace).map(\.pathIndex) == [8, 12])
    }
}

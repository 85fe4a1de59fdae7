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
        scheduler.discardFrames(ofPaths: [11])
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

    /// Paths retired together (a new tree) lose their frames in one pass: each one's content and
    /// the STUBs opening them, from every queue; what stays keeps its order.
    @Test func pathsRetiredTogetherLoseTheirFramesInOnePass() {
        var scheduler = FrameScheduler(configuration: ProviderConfiguration())
        var counters = ProviderCounters()
        let waiting: [(ADASISMessage, FramePriority)] = [
            (.segment(SegmentMessage(offset: 200, pathIndex: 8)), .farHorizon),
            (.stub(StubMessage(offset: 228, pathIndex: 8, subPathIndex: 11)), .farHorizon),
            (
                .profileShort(ProfileShortMessage(offset: 20, pathIndex: 11, profileType: .curvature, value0: 510)),
                .farHorizon
            ),
            (.stub(StubMessage(offset: 300, pathIndex: 8, subPathIndex: 12)), .farHorizon),
            (.segment(SegmentMessage(offset: 0, pathIndex: 12)), .retransmission),
            (.segment(SegmentMessage(offset: 10, pathIndex: 13)), .farHorizon),
            (.stub(StubMessage(offset: 350, pathIndex: 8, subPathIndex: 13)), .farHorizon),
        ]
        for (message, priority) in waiting { scheduler.enqueue(message, priority: priority, counters: &counters) }
        scheduler.discardFrames(ofPaths: [11, 12])
        let sent = scheduler.release(at: 0, counters: &counters).map(\.message)
        // Path index and offset of what goes out: path 8's SEGMENT, path 13 and the STUB opening it.
        #expect(sent.compactMap(\.pathPlace).map { "\($0.pathIndex)@\($0.offset)" } == ["8@200", "13@10", "8@350"])
    }

    /// Release order is priority, then arrival; past the queue's limit the least urgent, newest
    /// frame is dropped; retransmissions that do not fit a tick are skipped, the rest waits.
    @Test func mostUrgentFirstThenOldestFirst() {
        var configuration = ProviderConfiguration()
        configuration.framesPerTick = 3
        configuration.maximumQueuedFrames = 5
        var scheduler = FrameScheduler(configuration: configuration)
        var counters = ProviderCounters()
        func segment(_ offset: UInt16) -> ADASISMessage { .segment(SegmentMessage(offset: offset, pathIndex: 8)) }
        let arrivals: [(UInt16, FramePriority)] = [
            (1, .retransmission), (2, .farHorizon), (3, .nearHorizon), (4, .farHorizon), (5, .nearHorizon),
            (6, .retransmission),  // the sixth: the newest retransmission (6) is dropped
            (7, .farHorizon),  // the sixth again: now the retransmission 1 is
        ]
        for (offset, priority) in arrivals {
            scheduler.enqueue(segment(offset), priority: priority, counters: &counters)
        }
        #expect(scheduler.queuedCount == 5 && counters.retransmissionsSkipped == 2)
        func offsets(_ frames: [ProviderFrame]) -> [UInt16] { frames.compactMap(\.message.pathPlace?.offset) }
        #expect(offsets(scheduler.release(at: 0, counters: &counters)) == [3, 5, 2])
        scheduler.enqueue(segment(8), priority: .retransmission, counters: &counters)
        scheduler.enqueue(segment(9), priority: .vehicle, counters: &counters)
        #expect(offsets(scheduler.release(at: 0.1, counters: &counters)) == [9, 4, 7])
        #expect(scheduler.queuedCount == 0 && counters.retransmissionsSkipped == 3, "retransmission 8 skipped")
        #expect(counters.framesSent[.segment] == 6)
    }

    /// A reused index's new content never overtakes the STUB that places it: content of path 11
    /// queued near while the STUB opening 11 waits far goes after that STUB (the receiver would add
    /// it to the index's previous path, and drop it with that path when the STUB came). Once the
    /// STUB is out, or discarded, the path's near content is near again.
    @Test func contentWaitsForTheStubThatOpensItsPath() {
        var configuration = ProviderConfiguration()
        configuration.framesPerTick = 2
        var scheduler = FrameScheduler(configuration: configuration)
        var counters = ProviderCounters()
        func segment(_ offset: UInt16, on path: UInt8) -> ADASISMessage {
            .segment(SegmentMessage(offset: offset, pathIndex: path))
        }
        func places(_ frames: [ProviderFrame]) -> [String] {
            frames.compactMap(\.message.pathPlace).map { "\($0.pathIndex)@\($0.offset)" }
        }
        scheduler.enqueue(segment(900, on: 8), priority: .farHorizon, counters: &counters)
        scheduler.enqueue(
            .stub(StubMessage(offset: 1175, pathIndex: 8, subPathIndex: 11)), priority: .farHorizon, counters: &counters
        )
        scheduler.enqueue(segment(1175, on: 11), priority: .farHorizon, counters: &counters)
        scheduler.enqueue(segment(1185, on: 11), priority: .nearHorizon, counters: &counters)
        scheduler.enqueue(segment(300, on: 12), priority: .nearHorizon, counters: &counters)
        #expect(places(scheduler.release(at: 0, counters: &counters)) == ["12@300", "8@900"])
        #expect(places(scheduler.release(at: 0.1, counters: &counters)) == ["8@1175", "11@1175"])
        // The STUB is out: path 11's near content is near again.
        scheduler.enqueue(segment(1000, on: 8), priority: .farHorizon, counters: &counters)
        scheduler.enqueue(segment(1195, on: 11), priority: .nearHorizon, counters: &counters)
        #expect(places(scheduler.release(at: 0.2, counters: &counters)) == ["11@1195", "11@1185"])
        // A STUB discarded with its path opens nothing any more.
        scheduler.enqueue(
            .stub(StubMessage(offset: 1300, pathIndex: 8, subPathIndex: 14)), priority: .farHorizon, counters: &counters
        )
        scheduler.discardFrames(ofPaths: [14])
        scheduler.enqueue(segment(10, on: 14), priority: .nearHorizon, counters: &counters)
        #expect(places(scheduler.release(at: 0.3, counters: &counters)) == ["14@10", "8@1000"])
    }
}

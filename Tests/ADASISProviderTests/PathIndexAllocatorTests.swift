import ADASISv2
import Testing
import Horizon
import GNSS
import RoadMap
@testable import ADASISProvider

@Suite("path index allocation")
struct PathIndexAllocatorTests {
    @Test("main path 8 first; a released index rests for the delay before reuse; 56 indices at most")
    func allocation() {
        var allocator = PathIndexAllocator(reuseDelay: 10)
        #expect(allocator.allocate(at: 0) == 8)
        #expect(allocator.allocate(at: 0) == 9)
        allocator.release(8, at: 1)
        #expect(allocator.allocate(at: 5) == 10)  // 8 still rests
        #expect(allocator.allocate(at: 11) == 8)  // rested 10 s
        var full = PathIndexAllocator(reuseDelay: 10)
        let all = (0..<56).compactMap { _ in full.allocate(at: 0) }
        #expect(all == Array(8...63))
        #expect(full.allocate(at: 0) == nil)
    }

    @Test("a provider replacing another (reload) keeps the indices receivers may hold resting")
    func handOver() throws {
        var old = PathIndexAllocator(reuseDelay: 10)
        _ = old.allocate(at: 0); _ = old.allocate(at: 0)  // 8, 9 held
        old.release(9, at: 3)  // 9 rests since 3
        var new = PathIndexAllocator(reuseDelay: 10)
        for (index, since) in old.unavailable(at: 4) { new.rest(index, since: since) }
        #expect(new.allocate(at: 5) == 10)
        #expect(new.allocate(at: 13.5) == 9)  // 9 rested from 3
        #expect(new.allocate(at: 13.5) == 11)  // 8 was held until the hand-over at 4
        #expect(new.allocate(at: 14) == 8)
    }

    @Test("an excluded index is passed over; the highest free one is found without taking it")
    func exclusion() {
        var allocator = PathIndexAllocator(reuseDelay: 10)
        #expect(allocator.allocate(at: 0, excluding: [8, 9]) == 10)
        #expect(allocator.lastFree(at: 0) == 63)
        #expect(allocator.lastFree(at: 0, excluding: [63]) == 62)
        allocator.release(10, at: 1)
        #expect(allocator.allocate(at: 2, excluding: [8]) == 9)  // 10 rests
        #expect(allocator.lastFree(at: 2) == 63)
    }

    /// Sub-paths that a re-root took from the receiver come back after a second, not ten: in a
    /// city every turn detaches most of the tree, and with a 10 s rest for all of them the next
    /// tree's side paths went without an index (kruununhaka: 62.6 % of the true next 500 m in the
    /// tree on the bus, 93.6 % with this; `adasis horizon --as-sent`).
    @Test("an index the receiver dropped rests the short delay; one it may hold, the full one")
    func droppedByReceiver() {
        var allocator = PathIndexAllocator(reuseDelay: 10, droppedReuseDelay: 1)
        #expect(allocator.allocate(at: 0) == 8)
        #expect(allocator.allocate(at: 0) == 9)
        #expect(allocator.allocate(at: 0) == 10)
        allocator.release(9, at: 2)
        allocator.release(10, at: 2)
        // The receiver still holds 10 (behind the vehicle, not yet purged); 9 was re-rooted away.
        #expect(allocator.allocate(at: 2.5, receiverHolds: [8, 10]) == 11)  // 9 rests 1 s
        #expect(allocator.allocate(at: 3, receiverHolds: [8, 10]) == 9)
        #expect(allocator.allocate(at: 3, receiverHolds: [8, 10]) == 12)  // 10 rests 10 s
        #expect(allocator.allocate(at: 12, receiverHolds: [8, 10]) == 10)
        // Without the receiver's view every index rests the full delay.
        var unaware = PathIndexAllocator(reuseDelay: 10, droppedReuseDelay: 1)
        #expect(unaware.allocate(at: 0) == 8)
        unaware.release(8, at: 0)
        #expect(unaware.allocate(at: 5) == 9)
        #expect(unaware.lastFree(at: 5, receiverHolds: []) == 63)
        #expect(unaware.allocate(at: 5, receiverHolds: []) == 8)
    }

    /// What a receiver still holds decides which index a new main path may take: one that the
    /// receiver holds (its main path or a sub-path placed below it) would keep that path's old
    /// content, since a receiver re-roots only when POSITION names another path.
    @Test("the receiver model follows STUBs and re-rooting POSITIONs")
    func receiverModel() {
        var model = ReceiverTreeModel()
        func stub(_ parent: UInt8, _ child: UInt8) -> ADASISMessage {
            .stub(StubMessage(offset: 100, pathIndex: parent, subPathIndex: child))
        }
        func position(_ index: UInt8) -> ADASISMessage {
            .position(PositionMessage(offset: 10, pathIndex: index))
        }
        model.apply(position(8))
        model.apply(stub(8, 9))
        model.apply(stub(8, 10))
        model.apply(stub(9, 11))
        model.apply(stub(8, 5))  // stub-only: no path
        #expect(model.held == [8, 9, 10, 11])
        model.apply(position(0))  // no position: the receiver keeps what it holds
        #expect(model.held == [8, 9, 10, 11])
        model.apply(position(9))  // 9 became the main path: 8 and 10 are dropped, 11 stays below 9
        #expect(model.mainIndex == 9)
        #expect(model.held == [9, 11])
        model.apply(stub(9, 12))
        model.apply(stub(12, 13))
        model.apply(stub(11, 12))  // 12 placed elsewhere: its old subtree (13) goes
        #expect(model.held == [9, 11, 12])
        model.apply(position(20))  // a new main path outside the tree
        #expect(model.held == [20])
    }
}

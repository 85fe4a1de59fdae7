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
}

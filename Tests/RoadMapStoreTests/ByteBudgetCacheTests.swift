import RoadMap
import Testing
@testable import RoadMapStore

@Suite("tile cache byte budget")
struct ByteBudgetCacheTests {
    @Test("inserting beyond the budget evicts the least recently used entries")
    func evictsLeastRecentlyUsed() {
        var cache = ByteBudgetCache<Int, String>(byteBudget: 100)
        cache.insert("a", for: 1, cost: 40)
        cache.insert("b", for: 2, cost: 40)
        #expect(cache.value(for: 1) == "a")  // 1 is now more recent than 2
        let evicted = cache.insert("c", for: 3, cost: 40)
        #expect(evicted.map(\.key) == [2] && evicted.map(\.value) == ["b"])
        #expect(cache.contains(1) && cache.contains(3) && !cache.contains(2))
        #expect(cache.totalCost == 80)
    }

    @Test("the total cost never exceeds the budget and replacing an entry updates its cost")
    func budgetHolds() {
        var cache = ByteBudgetCache<Int, Int>(byteBudget: 1_000)
        for key in 0..<200 {
            cache.insert(key, for: key, cost: 37 + key % 50)
            #expect(cache.totalCost <= 1_000)
        }
        #expect(cache.contains(199))
        cache.insert(-1, for: 199, cost: 10)
        #expect(cache.value(for: 199) == -1)
        #expect(cache.totalCost <= 1_000)
    }

    @Test("an entry larger than the whole budget is not cached and evicts nothing")
    func oversized() {
        var cache = ByteBudgetCache<String, Int>(byteBudget: 50)
        cache.insert(1, for: "small", cost: 30)
        #expect(cache.insert(2, for: "huge", cost: 51).isEmpty)
        #expect(!cache.contains("huge") && cache.contains("small"))
    }

    @Test("withValue reads an entry in place, counts as a use for eviction, and is nil for a missing key")
    func readInPlace() {
        var cache = ByteBudgetCache<Int, [String]>(byteBudget: 100)
        cache.insert(["a", "b"], for: 1, cost: 40)
        cache.insert(["c"], for: 2, cost: 40)
        #expect(cache.withValue(for: 1) { $0[1] } == "b")  // 1 is now more recent than 2
        #expect(cache.withValue(for: 3) { $0.count } == nil)
        let evicted = cache.insert(["d"], for: 3, cost: 40)
        #expect(evicted.map(\.key) == [2])
        #expect(cache.contains(1) && cache.contains(3) && cache.totalCost == 80)
    }
}

import TestSupport
import Testing

@testable import ADASISProvider

/// `PathIndexSet`: the allocator's and receiver model's sets of path indices as one 64-bit mask.
@Suite struct PathIndexSetTests {
    @Test("holds exactly the indices inserted, lists them in ascending order, and equals the same literal")
    func membership() {
        var set: PathIndexSet = [63, 8, 0]
        set.insert(17)
        let removed = set.remove(8), absent = set.remove(9)
        #expect(removed && !absent)
        #expect(Array(set) == [0, 17, 63])
        #expect(set.count == 3 && !set.isEmpty)
        #expect(set == [17, 63, 0])
        #expect(set.contains(63) && !set.contains(8) && !set.contains(64) && !set.contains(255))
        #expect(PathIndexSet().isEmpty && Array(PathIndexSet()).isEmpty)
    }

    @Test("agrees with Set<UInt8> over random inserts and removes of 0…63")
    func agreesWithSet() {
        var generator = SplitMix64(seed: 29)
        var mask = PathIndexSet()
        var reference = Set<UInt8>()
        for _ in 0..<2000 {
            let index = UInt8(generator.next() % 64)
            if generator.next() % 3 == 0 {
                let removed = mask.remove(index)
                #expect(removed == (reference.remove(index) != nil))
            } else {
                mask.insert(index)
                reference.insert(index)
            }
            #expect(Array(mask) == reference.sorted())
        }
    }
}

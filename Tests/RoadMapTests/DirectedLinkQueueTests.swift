import Testing
import RoadMap
import TestSupport

/// ``DirectedLinkQueue``, the heap the matcher's route distances and the route planner search with:
/// pops come in key order, ties by link, whatever the order of pushes and pops.
@Suite struct DirectedLinkQueueTests {
    /// Random pushes and pops, interleaved, against a sorted list of what is queued: every pop is
    /// its smallest entry, so a search visits links in the same order on every run. Keys repeat
    /// (links reached at the same distance) and a link may be queued twice. Each entry's tag comes
    /// back with it.
    @Test func popsInKeyOrderWithTiesByLink() {
        var random = SplitMix64(seed: 50)
        var queue = DirectedLinkQueue()
        var reference: [(key: Double, link: DirectedLink)] = []
        func precedes(_ a: (key: Double, link: DirectedLink), _ b: (key: Double, link: DirectedLink)) -> Bool {
            a.key < b.key || (a.key == b.key && a.link < b.link)
        }
        func tag(_ key: Double, _ link: DirectedLink) -> Int32 {
            Int32(key * 10) * 100 + Int32(link.link.rawValue) * 2 + (link.direction == .forward ? 0 : 1)
        }
        var popped = 0
        for step in 0..<5000 {
            if random.next() % 3 != 0 || reference.isEmpty {
                let key = Double(random.next() % 40) * 2.5
                let link = DirectedLink(LinkID(random.next() % 30 + 1), random.next() % 2 == 0 ? .forward : .backward)
                queue.push(key, link, tag: tag(key, link))
                reference.append((key, link))
                reference.sort(by: precedes)
            } else {
                let expected = reference.removeFirst()
                let entry = queue.popTagged()
                #expect(entry?.key == expected.key && entry?.link == expected.link, "step \(step)")
                #expect(entry?.tag == tag(expected.key, expected.link))
                popped += 1
            }
            #expect(queue.topKey == (reference.first?.key ?? .infinity))
        }
        while let entry = queue.pop() {
            let expected = reference.removeFirst()
            #expect(entry.key == expected.key && entry.link == expected.link)
        }
        #expect(reference.isEmpty && queue.isEmpty && popped > 1000)
    }
}

import RoadMap
import Testing
@testable import RoadMapImport

@Suite("lanes per direction")
struct LanesPerDirectionTests {
    @Test("a one-way road has all lanes in its direction")
    func oneway() {
        let lanes = LanesPerDirection(tags: ["lanes": "3"], oneway: .forward)
        #expect(lanes.forward == 3 && lanes.backward == nil)
    }

    @Test("a two-way road splits an even count and honours explicit directions")
    func twoWay() {
        let even = LanesPerDirection(tags: ["lanes": "4"], oneway: .no)
        #expect(even.forward == 2 && even.backward == 2)
        let explicit = LanesPerDirection(tags: ["lanes": "3", "lanes:forward": "2"], oneway: .no)
        #expect(explicit.forward == 2 && explicit.backward == 1)
    }

    @Test("an odd total without a split and malformed counts stay unknown")
    func unknown() {
        let odd = LanesPerDirection(tags: ["lanes": "3"], oneway: .no)
        #expect(odd.forward == nil && odd.backward == nil)
        let bad = LanesPerDirection(tags: ["lanes": "two"], oneway: .forward)
        #expect(bad.forward == nil)
    }
}

import RoadMap
import Testing
@testable import RoadMapImport

@Suite("oneway from tags")
struct OnewayTagTests {
    @Test("explicit oneway values")
    func explicit() {
        #expect(Oneway(tags: ["oneway": "yes"], highwayClass: .residential) == .forward)
        #expect(Oneway(tags: ["oneway": "-1"], highwayClass: .residential) == .backward)
        #expect(Oneway(tags: ["oneway": "no"], highwayClass: .motorway) == .no)
    }

    @Test("roundabouts and motorways are implied one-way, other roads are not")
    func implied() {
        #expect(Oneway(tags: ["junction": "roundabout"], highwayClass: .tertiary) == .forward)
        #expect(Oneway(tags: [:], highwayClass: .motorway) == .forward)
        #expect(Oneway(tags: [:], highwayClass: .primary) == .no)
        #expect(Oneway(tags: ["oneway": "reversible"], highwayClass: .primary) == .no)
    }
}

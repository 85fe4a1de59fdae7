import RoadMap
import Testing
@testable import RoadMapImport

@Suite("which ways are car roads and their form of way")
struct RoadSelectionTests {
    @Test("car road classes are kept, footways and closed roads are not")
    func selection() {
        let all = RoadSelection()
        #expect(all.highwayClass(for: ["highway": "residential"]) == .residential)
        #expect(all.highwayClass(for: ["highway": "motorway_link"]) == .motorwayLink)
        #expect(all.highwayClass(for: ["highway": "footway"]) == nil)
        #expect(all.highwayClass(for: ["highway": "cycleway"]) == nil)
        #expect(all.highwayClass(for: ["building": "yes"]) == nil)
        #expect(all.highwayClass(for: ["highway": "service", "access": "private"]) == nil)
        #expect(
            all.highwayClass(for: ["highway": "residential", "access": "no", "motor_vehicle": "yes"]) == .residential)
    }

    @Test("the selection is configurable")
    func configurable() {
        let noService = RoadSelection(classes: Set(HighwayClass.allCases).subtracting([.service]))
        #expect(noService.highwayClass(for: ["highway": "service"]) == nil)
        #expect(noService.highwayClass(for: ["highway": "primary"]) == .primary)
    }

    @Test("form of way from the way's tags")
    func formOfWay() {
        #expect(FormOfWay(highwayClass: .motorway, tags: [:]) == .freeway)
        #expect(FormOfWay(highwayClass: .motorwayLink, tags: [:]) == .freewayRamp)
        #expect(FormOfWay(highwayClass: .primaryLink, tags: [:]) == .ramp)
        #expect(FormOfWay(highwayClass: .tertiary, tags: ["junction": "roundabout"]) == .roundabout)
        #expect(FormOfWay(highwayClass: .primary, tags: ["dual_carriageway": "yes"]) == .multipleCarriageway)
        #expect(FormOfWay(highwayClass: .service, tags: ["service": "parking_aisle"]) == .carParkAccess)
        #expect(FormOfWay(highwayClass: .residential, tags: [:]) == .singleCarriageway)
    }
}

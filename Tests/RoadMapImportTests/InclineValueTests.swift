import RoadMap
import Testing
@testable import RoadMapImport

@Suite("incline tag parsing")
struct InclineValueTests {
    @Test("percent, signed, with and without the sign")
    func percent() {
        #expect(InclineValue.percent(parsing: "5%") == 5)
        #expect(InclineValue.percent(parsing: "-10 %") == -10)
        #expect(InclineValue.percent(parsing: "7") == 7)
    }

    @Test("degrees are converted to percent")
    func degrees() throws {
        let value = try #require(InclineValue.percent(parsing: "45°"))
        #expect(abs(value - 100) < 1e-9)
    }

    @Test("up, down and nonsense have no magnitude", arguments: ["up", "down", "steep", "", "400%"])
    func noMagnitude(text: String) {
        #expect(InclineValue.percent(parsing: text) == nil)
    }
}

import Foundation
import RoadMap
import Testing
@testable import RoadMapImport

@Suite("legal default speed limits")
struct LegalDefaultSpeedsTests {
    @Test("Finnish urban, rural and living street defaults come from the bundled table")
    func finland() throws {
        let table = try LegalDefaultSpeeds.bundled()
        let urban = SpeedLimit(value: .kilometresPerHour(50), kind: .implicit)
        #expect(table.implicitLimit(for: .legalDefault(country: "FI", zone: "urban")) == urban)
        #expect(
            table.implicitLimit(country: "FI", roadTypes: ["rural"])
                == SpeedLimit(value: .kilometresPerHour(100), kind: .implicit))
        #expect(
            table.implicitLimit(country: "FI", roadTypes: ["living street"])
                == SpeedLimit(value: .kilometresPerHour(20), kind: .implicit))
    }

    @Test("German motorways are implicitly unlimited, not 0")
    func germanMotorway() throws {
        let table = try LegalDefaultSpeeds.bundled()
        let limit = try #require(table.implicitLimit(country: "DE", roadTypes: ["motorway"]))
        #expect(limit.value == .unlimited)
        #expect(limit.kind == .implicit)
    }

    @Test("an unknown country gives no implicit limit, a malformed table a typed error")
    func unknownAndMalformed() throws {
        let table = try LegalDefaultSpeeds.bundled()
        #expect(table.implicitLimit(country: "XX", roadTypes: ["urban"]) == nil)
        #expect(throws: LegalDefaultSpeedsError.self) { try LegalDefaultSpeeds(json: Data("[1,2]".utf8)) }
    }
}

import Testing
@testable import RoadMap

@Suite("countries: numeric code, driving side, speed unit")
struct CountryTests {
    @Test("FI is 246, drives on the right, signs in km/h")
    func finland() throws {
        let finland = try Country(alpha2: "fi")
        #expect(finland.alpha2 == "FI")
        #expect(finland.numericCode == 246)
        #expect(finland.drivingSide == .right)
        #expect(finland.speedUnit == .kilometresPerHour)
    }

    @Test("GB drives on the left in mph, US on the right in mph, DE is 276")
    func others() throws {
        let britain = try Country(alpha2: "GB")
        #expect(britain.numericCode == 826 && britain.drivingSide == .left && britain.speedUnit == .milesPerHour)
        let states = try Country(alpha2: "US")
        #expect(states.numericCode == 840 && states.drivingSide == .right && states.speedUnit == .milesPerHour)
        #expect(try Country(alpha2: "DE").numericCode == 276)
    }

    @Test("an unknown code is a typed error naming it")
    func unknown() {
        #expect(throws: CountryError.unknownCode("XQ")) { try Country(alpha2: "XQ") }
    }
}

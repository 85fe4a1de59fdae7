import Testing

@testable import RoadMap

/// ISO 3166-1 alpha-3 and numeric look-ups, and the 15-bit META-DATA RegionCode of ISO 3166-2
/// regions (Docs/adasis-conventions.md).
@Suite("countries and regions")
struct RegionTests {
    @Test("alpha-3 and numeric codes agree with ISO 3166-1")
    func countryCodes() throws {
        #expect(try Country(alpha2: "FI").alpha3 == "FIN")
        #expect(try Country(alpha2: "de").alpha3 == "DEU")
        #expect(try Country(numericCode: 756).alpha2 == "CH")
        #expect(try Country(numericCode: 40).alpha3 == "AUT")
        #expect(throws: CountryError.unknownNumericCode(999)) { try Country(numericCode: 999) }
        // Every country has an alpha-3 code and comes back from its numeric code.
        for alpha2 in Country.numericCodesByAlpha2.keys {
            let country = try Country(alpha2: alpha2)
            #expect(Country.alpha3CodesByAlpha2[alpha2]?.count == 3, "\(alpha2)")
            #expect(try Country(numericCode: country.numericCode) == country)
        }
    }

    @Test("region codes of every shape round-trip through the wire code and stay distinct")
    func wireCodes() throws {
        let codes = [
            "US-CA", "DE-BY", "AT-5", "FI-18", "FR-75", "FR-20R", "GB-ENG", "NL-BQ1", "CH-ZH", "US-DC", "AT-9",
        ]
        var seen: [UInt16: String] = [:]
        for code in codes {
            let region = try Region(code: code)
            let wire = region.wireCode
            #expect(wire >= 1 && wire <= 29268, "\(code) → \(wire)")
            #expect(Region(country: region.country, wireCode: wire) == region, "\(code) → \(wire)")
            #expect(seen[wire] == nil, "\(code) and \(seen[wire] ?? "") share \(wire)")
            seen[wire] = code
        }
        #expect(try Region(code: "at-5").code == "AT-5")
        #expect(try Region(code: "AT-5").wireCode == 6)
        #expect(try Region(code: "DE-BY").wireCode == 467)
    }

    @Test("every wire code names at most one subdivision, and 0 and 32767 none")
    func wireCodeSpace() throws {
        let country = try Country(alpha2: "US")
        for wire in UInt16(1)...29268 {
            let region = try #require(Region(country: country, wireCode: wire), "\(wire)")
            #expect(region.wireCode == wire)
        }
        #expect(Region(country: country, wireCode: 0) == nil)
        #expect(Region(country: country, wireCode: 29269) == nil)
        #expect(Region(country: country, wireCode: 32767) == nil)
    }

    @Test("malformed region codes are refused")
    func malformed() {
        for code in ["DE", "XX-BY", "DE-", "DE-BAYE", "DE-B_Y", "DE-1A2", "DE-A1B", "-BY"] {
            #expect(throws: RegionError.malformedCode(code)) { try Region(code: code) }
        }
    }
}

import DaemonConfiguration
import Foundation
import RoadMap
import Testing
import TestSupport

/// The legal filter's table: the shipped default (Data/safety-location-rules.toml), the order in
/// which rows decide, and the errors for bad tables (file, line, key, what to write).
@Suite("safety-location rules")
struct SafetyLocationRulesTests {
    static let de = try! Country(alpha2: "DE")
    static let fr = try! Country(alpha2: "FR")
    static let ch = try! Country(alpha2: "CH")
    static let fi = try! Country(alpha2: "FI")
    static let at = try! Country(alpha2: "AT")

    @Test("the built-in table is Data/safety-location-rules.toml, and every row names its source")
    func shippedTable() throws {
        let file = try String(contentsOf: Repository.url("Data/safety-location-rules.toml"), encoding: .utf8)
        #expect(SafetyLocationRules.shippedTableText == file)
        let rules = try SafetyLocationRules.shippedDefault()
        #expect(rules == (try SafetyLocationRules(toml: file, source: "Data/safety-location-rules.toml")))
        #expect(rules.rules.count == 6 && rules.rules.allSatisfy { $0.source.count > 40 })
        #expect(
            rules.decidingRule(for: .fixedSpeedCamera, country: Self.de, region: nil)?.source.contains("§ 23") == true)
        #expect(
            rules.decidingRule(for: .mobileSpeedZone, country: Self.ch, region: nil)?.source.contains("98a") == true)
        #expect(
            rules.decidingRule(for: .redLightCamera, country: Self.fr, region: nil)?.source.contains("2012-3") == true)
    }

    @Test("the shipped table: DE and CH forbid every safety location, FR only danger zones, restriction cameras off")
    func shippedDecisions() throws {
        let rules = try SafetyLocationRules.shippedDefault()
        let cameras: [RoadObjectType] = [.fixedSpeedCamera, .mobileSpeedZone, .redLightCamera, .averageSpeedZone]
        for type in cameras {
            #expect(!rules.allows(type, country: Self.de, region: nil), "\(type) DE")
            #expect(!rules.allows(type, country: Self.de, region: try Region(code: "DE-BY")), "\(type) DE-BY")
            #expect(!rules.allows(type, country: Self.ch, region: nil), "\(type) CH")
            #expect(!rules.allows(type, country: Self.fr, region: nil), "\(type) FR")
            #expect(rules.allows(type, country: Self.fi, region: nil), "\(type) FI")
            #expect(rules.allows(type, country: Self.at, region: try Region(code: "AT-5")), "\(type) AT-5")
            #expect(rules.allows(type, country: nil, region: nil), "\(type) unknown country")
        }
        #expect(rules.allows(.dangerZone, country: Self.fr, region: nil))
        #expect(!rules.allows(.dangerZone, country: Self.de, region: nil))
        #expect(!rules.allows(.restrictionCamera, country: Self.fi, region: nil))
        #expect(!rules.allows(.restrictionCamera, country: nil, region: nil))
        // Danger zones only in France: a restriction camera off by policy is not turned into one.
        #expect(!rules.allows(.dangerZone, country: Self.fi, region: nil))
        #expect(!rules.allows(.dangerZone, country: nil, region: nil))
        // Objects that are not safety locations are never filtered.
        for type in RoadObjectType.allCases where !type.isSafetyLocation {
            #expect(rules.allows(type, country: Self.de, region: nil), "\(type)")
        }
    }

    @Test("the most specific row decides: region and type, region, country and type, country, type, everywhere")
    func precedence() throws {
        let text = """
            [everywhere]
            safety_locations = false
            fixed_speed_camera = true
            source = "test: everything off but fixed cameras"

            [country.DE]
            safety_locations = true
            red_light_camera = false
            source = "test"

            [region.DE-BY]
            safety_locations = false
            mobile_speed_zone = true
            source = "test"
            """
        let rules = try SafetyLocationRules(toml: text, source: "t.toml")
        let bavaria = try Region(code: "DE-BY"), berlin = try Region(code: "DE-BE")
        #expect(rules.allows(.mobileSpeedZone, country: Self.de, region: bavaria))  // region + type
        #expect(!rules.allows(.fixedSpeedCamera, country: Self.de, region: bavaria))  // region
        #expect(!rules.allows(.redLightCamera, country: Self.de, region: berlin))  // country + type
        #expect(rules.allows(.averageSpeedZone, country: Self.de, region: berlin))  // country
        #expect(rules.allows(.fixedSpeedCamera, country: Self.fi, region: nil))  // type everywhere
        #expect(!rules.allows(.dangerZone, country: Self.fi, region: nil))  // everywhere
        // A region row applies even where the link's country code is unknown.
        #expect(!rules.allows(.fixedSpeedCamera, country: nil, region: bavaria))
        #expect(SafetyLocationRules.allowingAll.allows(.fixedSpeedCamera, country: Self.de, region: nil))
    }

    @Test(
        "bad tables are refused with file, line, key and what to write",
        arguments: [
            (
                "[country.XX]\nsafety_locations = false\nsource = \"s\"\n", 2, "country.XX.safety_locations",
                "unknown country code 'XX'"
            ),
            (
                "[country.DEU]\nsafety_locations = false\nsource = \"s\"\n", 2, "country.DEU.safety_locations",
                "unknown country code 'DEU'"
            ),
            (
                "[region.DE-BAYERN]\nsafety_locations = false\nsource = \"s\"\n", 2,
                "region.DE-BAYERN.safety_locations", "unknown region code 'DE-BAYERN'"
            ),
            ("[country.DE]\nsource = \"s\"\nspeed_trap = false\n", 3, "country.DE.speed_trap", "unknown key"),
            (
                "[country.DE]\nsource = \"s\"\ntunnel = false\n", 3, "country.DE.tunnel",
                "'tunnel' is not a safety-location type"
            ),
            (
                "[country.DE]\nsource = \"s\"\nfixed_speed_camera = \"no\"\n", 3, "country.DE.fixed_speed_camera",
                "expected true or false"
            ),
            ("\n[country.DE]\nfixed_speed_camera = false\n", 3, "country.DE", "the row has no source"),
            ("[country.DE]\nsource = \"\"\nsafety_locations = false\n", 2, "country.DE.source", "non-empty string"),
            ("[country.DE]\nsource = \"s\"\n", 2, "country.DE.source", "no rule"),
            (
                "[countries.DE]\nsafety_locations = false\n", 2, "countries.DE.safety_locations",
                "rows are tables [everywhere]"
            ),
            ("safety_locations = false\n", 1, "safety_locations", "rows are tables [everywhere]"),
            ("[country.DE]\nsafety_locations = false\nsource = \"s\n", 3, nil, "not closed"),
        ] as [(String, Int, String?, String)])
    func badTables(text: String, line: Int, key: String?, problem: String) {
        #expect {
            try SafetyLocationRules(toml: text, source: "rules.toml")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.file == "rules.toml" && error.line == line && error.key == key
                && error.problem.contains(problem)
        }
    }
}

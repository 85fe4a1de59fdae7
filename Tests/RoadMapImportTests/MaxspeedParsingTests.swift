import RoadMap
import Testing
@testable import RoadMapImport

@Suite("maxspeed tag parsing")
struct MaxspeedParsingTests {
    @Test("plain numbers and km/h spellings are km/h", arguments: ["50", "50 km/h", "50km/h", "50 kmh", "50 kph"])
    func kilometresPerHour(text: String) {
        #expect(MaxspeedValue(parsing: text) == .kilometresPerHour(50))
    }

    @Test("mph and knots are converted to km/h")
    func otherUnits() {
        guard case .kilometresPerHour(let fromMiles)? = MaxspeedValue(parsing: "30 mph") else {
            Issue.record("30 mph did not parse"); return
        }
        #expect(abs(fromMiles - 48.28032) < 1e-9)
        guard case .kilometresPerHour(let fromKnots)? = MaxspeedValue(parsing: "10 knots") else {
            Issue.record("10 knots did not parse"); return
        }
        #expect(abs(fromKnots - 18.52) < 1e-9)
    }

    @Test("special values none, walk and signals")
    func specialValues() {
        #expect(MaxspeedValue(parsing: "none") == .unlimited)
        #expect(MaxspeedValue(parsing: "walk") == .walk)
        #expect(MaxspeedValue(parsing: "signals") == .signals)
    }

    @Test("legal-default references keep country and zone")
    func legalDefaults() {
        #expect(MaxspeedValue(parsing: "FI:urban") == .legalDefault(country: "FI", zone: "urban"))
        #expect(MaxspeedValue(parsing: "DE:zone:30") == .legalDefault(country: "DE", zone: "zone:30"))
    }

    @Test(
        "malformed values are rejected, not read as 0", arguments: ["", "fast", "0", "-30", "50 furlongs", "fi:urban"])
    func malformed(text: String) {
        #expect(MaxspeedValue(parsing: text) == nil)
    }

    @Test("forward/backward override maxspeed per direction")
    func directional() {
        let limits = DirectionalSpeedLimits(tags: ["maxspeed": "60", "maxspeed:backward": "40"])
        #expect(limits.forward == SpeedLimit(value: .kilometresPerHour(60), kind: .explicit))
        #expect(limits.backward == SpeedLimit(value: .kilometresPerHour(40), kind: .explicit))
        #expect(limits.malformedValueCount == 0)
    }

    @Test("a conditional limit is time-dependent with the base value")
    func conditional() {
        let limits = DirectionalSpeedLimits(tags: [
            "maxspeed": "50", "maxspeed:conditional": "30 @ (Mo-Fr 07:00-17:00)",
        ])
        #expect(limits.forward == SpeedLimit(value: .kilometresPerHour(50), kind: .timeDependent))
        #expect(limits.backward.kind == .timeDependent)
    }

    @Test("none is unlimited and explicit, never a silent 0")
    func unlimited() {
        let limits = DirectionalSpeedLimits(tags: ["maxspeed": "none"])
        #expect(limits.forward == SpeedLimit(value: .unlimited, kind: .explicit))
        #expect(limits.forward.kilometresPerHour == nil)
    }

    @Test("a legal-default reference is left for the defaults table and a bad value is counted")
    func referencesAndMalformed() {
        let limits = DirectionalSpeedLimits(tags: ["maxspeed": "FI:urban", "maxspeed:forward": "abc"])
        #expect(limits.backwardReference == .legalDefault(country: "FI", zone: "urban"))
        #expect(limits.forwardReference == .legalDefault(country: "FI", zone: "urban"))
        #expect(limits.forward == .unknown)
        #expect(limits.malformedValueCount == 1)
    }
}

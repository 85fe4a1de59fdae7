import Testing
@testable import GNSS
import TestSupport

/// Seeded random and mutated input: the NMEA, CSV and GPX readers either succeed or report a
/// typed problem — they never trap.
@Suite("GNSS parsers never trap")
struct ParserFuzzTests {
    static let mutation = TextMutation(
        characters: "$GPRMCGA,*.0123456789ENSWV-\n\r\t \"<>/=:;trkptlaonie",
        maximumEdits: 6)

    @Test func nmeaSentencesAndEpochs() {
        var random = SplitMix64(seed: 7)
        let seeds = [
            "$GPRMC,100001.00,A,6010.28114,N,02456.14591,E,4.67,154.9,020326,,,A*63",
            "$GPGGA,100001.00,6010.28114,N,02456.14591,E,1,08,1.0,12.0,M,18.5,M,,*5E",
            "$GPVTG,154.9,T,,M,4.67,N,8.65,K,A*3C",
        ]
        var assembler = NMEAFixAssembler()
        for index in 0..<20_000 {
            let line = Self.mutation.mutate(seeds[index % 3], using: &random)
            _ = NMEASentence.parse(Substring(line))
            if let fix = assembler.add(line: Substring(line)) {
                #expect(fix.latitude.isFinite && fix.longitude.isFinite)
            }
        }
        _ = assembler.finish()
    }

    @Test func csvTraces() {
        var random = SplitMix64(seed: 11)
        let seed = "time_s,lat,lon,speed_mps,heading_deg\n0,60.17,24.94,5,90\n1,60.17,24.9401,5,90\n"
        for _ in 0..<5_000 {
            let text = Self.mutation.mutate(seed, using: &random)
            if let contents = try? CSVTrace.parse(text) {
                for fix in contents.fixes { #expect(fix.latitude.isFinite && fix.time.isFinite) }
            }
        }
    }
}

import Testing
@testable import GNSS

/// Seeded random and mutated input: the NMEA, CSV and GPX readers either succeed or report a
/// typed problem — they never trap.
@Suite("GNSS parsers never trap")
struct ParserFuzzTests {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func mutate(_ text: String, alphabet: [Character]) -> String {
            var characters = Array(text)
            for _ in 0..<Int(next() % 6) + 1 where !characters.isEmpty {
                let index = Int(next() % UInt64(characters.count))
                switch next() % 3 {
                case 0: characters[index] = alphabet[Int(next() % UInt64(alphabet.count))]
                case 1: characters.remove(at: index)
                default: characters.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: index)
                }
            }
            return String(characters)
        }
    }

    static let alphabet = Array("$GPRMCGA,*.0123456789ENSWV-\n\r\t \"<>/=:;trkptlaonie")

    @Test func nmeaSentencesAndEpochs() {
        var generator = Generator(state: 7)
        let seeds = ["$GPRMC,100001.00,A,6010.28114,N,02456.14591,E,4.67,154.9,020326,,,A*63",
                     "$GPGGA,100001.00,6010.28114,N,02456.14591,E,1,08,1.0,12.0,M,18.5,M,,*5E",
                     "$GPVTG,154.9,T,,M,4.67,N,8.65,K,A*3C"]
        var assembler = NMEAFixAssembler()
        for index in 0..<20_000 {
            let line = generator.mutate(seeds[index % 3], alphabet: Self.alphabet)
            _ = NMEASentence.parse(Substring(line))
            if let fix = assembler.add(line: Substring(line)) { #expect(fix.latitude.isFinite && fix.longitude.isFinite) }
        }
        _ = assembler.finish()
    }

    @Test func csvTraces() {
        var generator = Generator(state: 11)
        let seed = "time_s,lat,lon,speed_mps,heading_deg\n0,60.17,24.94,5,90\n1,60.17,24.9401,5,90\n"
        for _ in 0..<5_000 {
            let text = generator.mutate(seed, alphabet: Self.alphabet)
            if let contents = try? CSVTrace.parse(text) {
                for fix in contents.fixes { #expect(fix.latitude.isFinite && fix.time.isFinite) }
            }
        }
    }
}

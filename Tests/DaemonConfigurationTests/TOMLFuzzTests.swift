import Testing
@testable import DaemonConfiguration

/// Seeded mutations of a valid configuration: parsing either succeeds or gives a typed error with
/// a line number — it never traps.
@Suite("configuration reader never traps")
struct TOMLFuzzTests {
    @Test func mutatedConfigurations() {
        var state: UInt64 = 3
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let alphabet = Array("[]{}=\"'#.,\n \\u0x_-+eE123456789abcdeftrueflsn")
        let seed = Array(DaemonConfigurationTests.complete)
        for _ in 0..<5_000 {
            var text = seed
            for _ in 0..<Int(next() % 8) + 1 {
                let index = Int(next() % UInt64(text.count))
                switch next() % 3 {
                case 0: text[index] = alphabet[Int(next() % UInt64(alphabet.count))]
                case 1: text.remove(at: index)
                default: text.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: index)
                }
            }
            do {
                _ = try DaemonConfiguration(toml: String(text), source: "fuzz.toml")
            } catch {
                #expect(error.description.hasPrefix("fuzz.toml"))
            }
        }
    }
}

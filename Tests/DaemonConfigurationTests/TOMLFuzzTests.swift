import Testing
@testable import DaemonConfiguration
import TestSupport

/// Seeded mutations of a valid configuration: parsing either succeeds or gives a typed error with
/// a line number — it never traps.
@Suite("configuration reader never traps")
struct TOMLFuzzTests {
    @Test func mutatedConfigurations() {
        var random = SplitMix64(seed: 3)
        let mutation = TextMutation(characters: "[]{}=\"'#.,\n \\u0x_-+eE123456789abcdeftrueflsn", maximumEdits: 8)
        for _ in 0..<5_000 {
            let text = mutation.mutate(DaemonConfigurationTests.complete, using: &random)
            do {
                _ = try DaemonConfiguration(toml: text, source: "fuzz.toml")
            } catch {
                #expect(error.description.hasPrefix("fuzz.toml"))
            }
        }
    }
}

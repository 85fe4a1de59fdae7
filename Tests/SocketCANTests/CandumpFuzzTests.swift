import Testing
@testable import SocketCAN
import TestSupport

/// Seeded random and mutated lines: the candump reader parses or reports the line — never traps.
@Suite("candump reader never traps")
struct CandumpFuzzTests {
    @Test func mutatedLines() {
        var random = SplitMix64(seed: 5)
        let mutation = TextMutation(characters: "()#.RrvcanVCAN0123456789ABCDEFabcdef_ \t-", maximumEdits: 5)
        let seeds = [
            "(1700000000.123456) vcan0 123#0011223344556677", "(0.000000) can0 1ABCDEF0#R", "(1.5) vcan0 7FF#",
        ]
        for index in 0..<20_000 {
            let line = mutation.mutate(seeds[index % seeds.count], using: &random)
            if let record = try? CandumpLog.parse(line: Substring(line), lineNumber: index + 1) {
                #expect(record.frame.data.count <= 8)
            }
        }
    }
}

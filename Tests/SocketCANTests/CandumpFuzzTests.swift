import Testing
@testable import SocketCAN

/// Seeded random and mutated lines: the candump reader parses or reports the line — never traps.
@Suite("candump reader never traps")
struct CandumpFuzzTests {
    @Test func mutatedLines() {
        var state: UInt64 = 5
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let alphabet = Array("()#.RrvcanVCAN0123456789ABCDEFabcdef_ \t-")
        let seeds = ["(1700000000.123456) vcan0 123#0011223344556677", "(0.000000) can0 1ABCDEF0#R", "(1.5) vcan0 7FF#"]
        for index in 0..<20_000 {
            var line = Array(seeds[index % seeds.count])
            for _ in 0..<Int(next() % 5) + 1 where !line.isEmpty {
                let position = Int(next() % UInt64(line.count))
                switch next() % 3 {
                case 0: line[position] = alphabet[Int(next() % UInt64(alphabet.count))]
                case 1: line.remove(at: position)
                default: line.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: position)
                }
            }
            if let record = try? CandumpLog.parse(line: Substring(String(line)), lineNumber: index + 1) {
                #expect(record.frame.data.count <= 8)
            }
        }
    }
}

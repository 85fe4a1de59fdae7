import Foundation
import Testing
import TestSupport

@Test("adasis decode prints every frame's fields, reports bad lines by number and carries on")
func decodeCommandOnTheSampleHorizon() throws {
    try requireBuiltAdasis()
    let log = try String(contentsOf: Repository.root.appendingPathComponent("Tools/sample-frames.log"), encoding: .utf8)
    let input = log + "garbage\n(1.0) vcan0 123#00\n(1.1) vcan0 250#0102\n"
    let (status, out, err) = try runProcess(
        Repository.url(".build/debug/adasis"), ["decode", "-"],
        input: Data(input.utf8))
    #expect(status == 0)
    let lines = out.split(separator: "\n")
    #expect(
        lines.map { $0.split(separator: " ")[2] } == [
            "metaData", "segment", "profileShort", "stub", "segment", "position",
        ])
    #expect(
        lines[1].contains("EffectiveSpeedLimit=11(≤50 km/h)") && lines[4].contains("EffectiveSpeedLimit=7(≤30 km/h)"))
    #expect(lines[2].contains("Value0=770(+0.01008 1/m, R 99 m right)") && lines[2].contains("Value1=511(straight)"))
    #expect(err.contains("line 7: expected a timestamp"))
    #expect(err.contains("line 8: identifier 123 is not an ADASIS v2 identifier"))
    #expect(err.contains("line 9: 2 data bytes; an ADASIS v2 frame has 8"))
}

import Foundation
import Testing

@Test("adasis decode prints every frame's fields, reports bad lines by number and carries on")
func decodeCommandOnTheSampleHorizon() throws {
    try requireBuiltAdasis()
    let log = try String(contentsOf: repositoryRoot.appendingPathComponent("Tools/sample-frames.log"), encoding: .utf8)
    let input = log + "garbage\n(1.0) vcan0 123#00\n(1.1) vcan0 250#0102\n"
    let process = Process()
    process.executableURL = repositoryRoot.appendingPathComponent(".build/debug/adasis")
    process.arguments = ["decode", "-"]
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let lines = out.split(separator: "\n")
    #expect(lines.map { $0.split(separator: " ")[2] } == ["metaData", "segment", "profileShort", "stub", "segment", "position"])
    #expect(lines[1].contains("EffectiveSpeedLimit=11(≤50 km/h)") && lines[4].contains("EffectiveSpeedLimit=7(≤30 km/h)"))
    #expect(lines[2].contains("Value0=770(+0.01008 1/m, R 99 m right)") && lines[2].contains("Value1=511(straight)"))
    #expect(err.contains("line 7: expected a timestamp"))
    #expect(err.contains("line 8: identifier 123 is not an ADASIS v2 identifier"))
    #expect(err.contains("line 9: 2 data bytes; an ADASIS v2 frame has 8"))
}

import Foundation
import SocketCAN
import Testing

/// Runs `script` with bash inside a real kernel with vcan0 up (Tools/vcan-run: directly or in
/// User-Mode Linux) and returns its exit status, stdout and stderr.
func runInVcanKernel(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let process = Process()
    process.executableURL = root.appendingPathComponent("Tools/vcan-run")
    process.arguments = ["--timeout", "120", "bash", "-c", script]
    process.currentDirectoryURL = root
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

@Suite("real kernel via Tools/vcan-run", .serialized)
struct VcanKernelTests {
    @Test("vcan-run passes the command's exit status and stderr through")
    func exitStatusPropagates() throws {
        let result = try runInVcanKernel("echo to-stderr >&2; exit 3")
        #expect(result.status == 3, "vcan-run stderr: \(result.stderr)")
        #expect(result.stderr.contains("to-stderr"))
        #expect(result.stdout.isEmpty)
    }

    @Test("frames sent with cansend are recorded by candump -L byte for byte; a down interface refuses to send")
    func cansendCandumpRoundTrip() throws {
        let sent = ["123#DEADBEEF", "1ABCDEF0#0102030405060708", "7FF#R", "000#"]
        let script = """
        set -e
        candump -L vcan0 > /tmp/vcan-run-test-$$.log &
        dumper=$!
        sleep 0.3
        \(sent.map { "cansend vcan0 \($0)" }.joined(separator: "\n"))
        sleep 0.3
        kill $dumper
        wait $dumper || true
        cat /tmp/vcan-run-test-$$.log
        rm -f /tmp/vcan-run-test-$$.log
        ip link set vcan0 down
        if cansend vcan0 123#00 2>/dev/null; then echo "SENT-WHILE-DOWN"; fi
        """
        let result = try runInVcanKernel(script)
        try #require(result.status == 0, "vcan-run failed (is user-mode-linux installed?): \(result.stderr)")
        let parsed = CandumpLog.parse(text: result.stdout.replacingOccurrences(of: "SENT-WHILE-DOWN", with: ""))
        #expect(parsed.errors.isEmpty, "\(parsed.errors)")
        #expect(parsed.records.map { CandumpRecord.frameText($0.frame) } == sent)
        #expect(parsed.records.allSatisfy { $0.interface == "vcan0" && $0.timestampMicroseconds > 0 })
        #expect(!result.stdout.contains("SENT-WHILE-DOWN"))
    }
}

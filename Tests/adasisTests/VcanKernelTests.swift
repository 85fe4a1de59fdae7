import Foundation
import SocketCAN
import Testing
import TestSupport

/// Runs the built `.build/debug/adasis` with `arguments` on the host.
func runAdasis(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try runProcess(Repository.root.appendingPathComponent(".build/debug/adasis"), arguments)
}

/// Runs `script` with bash inside a real kernel with vcan0 up (Tools/vcan-run: the host kernel,
/// User-Mode Linux or a QEMU VM) and returns its exit status, stdout and stderr. The time limit
/// allows QEMU with software emulation (TCG), where programs run ≈ 30× slower; the scripts bound
/// their own waits, so a failure still ends well before it.
func runInVcanKernel(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
    try runProcess(
        Repository.root.appendingPathComponent("Tools/vcan-run"), ["--timeout", "600", "bash", "-c", script])
}

/// What a kernel script printed as `key=value` (its last such line); nil if it printed none.
func scriptValue(_ key: String, in output: String) -> String? {
    output.split(separator: "\n").last { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
}

/// Fails with a clear message unless `swift build` produced `.build/debug/adasis`.
func requireBuiltAdasis() throws {
    let path = Repository.root.appendingPathComponent(".build/debug/adasis").path
    try #require(
        FileManager.default.isExecutableFile(atPath: path),
        "\(path) is missing: run `swift build` before `swift test --filter adasisTests`")
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
            log=$(mktemp); trap 'rm -f "$log"' EXIT
            candump -L vcan0 > "$log" &
            dumper=$!
            sleep 1
            \(sent.map { "cansend vcan0 \($0)" }.joined(separator: "\n"))
            Tools/candump-wait "$log" \(sent.count) 60 || true
            kill $dumper
            wait $dumper || true
            cat "$log"
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

@Suite("adasis dump on a real kernel", .serialized)
struct DumpCommandKernelTests {
    @Test("frames sent with cansend arrive through adasis dump (our socket) as candump -L lines; down interface fails")
    func dumpReceivesFrames() throws {
        try requireBuiltAdasis()
        let sent = ["123#DEADBEEF", "1ABCDEF0#0102", "7FF#R"]
        let script = """
            log=$(mktemp); trap 'rm -f "$log" "$log.err"' EXIT
            .build/debug/adasis dump vcan0 --count 3 --timeout 10 > "$log" 2> "$log.err" &
            dumper=$!
            for i in $(seq 100); do grep -q "listening on vcan0" "$log.err" 2>/dev/null && break; sleep 0.05; done
            \(sent.map { "cansend vcan0 \($0)" }.joined(separator: "\n"))
            wait $dumper || { echo "dump failed with $?" >&2; exit 1; }
            cat "$log"
            ip link set vcan0 down
            .build/debug/adasis dump vcan0 --timeout 0.5 && { echo "dump succeeded on a down interface" >&2; exit 1; }
            exit 0
            """
        let result = try runInVcanKernel(script)
        try #require(result.status == 0, "\(result.stderr)")
        let parsed = CandumpLog.parse(text: result.stdout)
        #expect(parsed.errors.isEmpty, "\(parsed.errors)")
        #expect(parsed.records.map { CandumpRecord.frameText($0.frame) } == sent)
        #expect(
            parsed.records.allSatisfy { $0.interface == "vcan0" && $0.timestampMicroseconds > 1_000_000_000_000_000 })
        #expect(result.stderr.contains("the interface is down"))
    }
}

@Suite("adasis send on a real kernel", .serialized)
struct SendCommandKernelTests {
    @Test("adasis send puts a log's frames on vcan0 exactly as candump -L records them; down interface fails")
    func sendMatchesCandump() throws {
        try requireBuiltAdasis()
        let log = """
            (1700000000.000000) vcan0 123#DEADBEEF
            (1700000000.010000) vcan0 1ABCDEF0#0102030405060708
            (1700000000.020000) vcan0 7FF#R
            (1700000000.030000) vcan0 000#

            """
        let expected = CandumpLog.parse(text: log).records.map { CandumpRecord.frameText($0.frame) }
        let script = """
            recording=$(mktemp); trap 'rm -f "$recording"' EXIT
            candump -L vcan0 > "$recording" &
            dumper=$!
            sleep 1
            printf '%s' '\(log)' | .build/debug/adasis send - --can vcan0 --realtime || exit 1
            Tools/candump-wait "$recording" \(expected.count) 60 || true
            kill $dumper
            cat "$recording"
            ip link set vcan0 down
            printf '%s' '\(log)' | .build/debug/adasis send - --can vcan0 && { echo "send succeeded on a down interface" >&2; exit 1; }
            exit 0
            """
        let result = try runInVcanKernel(script)
        try #require(result.status == 0, "\(result.stderr)")
        let recorded = CandumpLog.parse(text: result.stdout)
        #expect(recorded.errors.isEmpty, "\(recorded.errors)")
        #expect(recorded.records.map { CandumpRecord.frameText($0.frame) } == expected)
        #expect(result.stderr.contains("4 frames sent, 0 dropped"))
        #expect(result.stderr.contains("vcan0 is down; bring it up with 'ip link set vcan0 up'"))
    }
}

@Suite("adasis can-interface in a real kernel", .serialized)
struct CANInterfaceCommandTests {
    @Test("state on vcan0 (no controller), permission and missing-interface errors say what to do")
    func statesAndErrors() throws {
        try requireBuiltAdasis()
        let result = try runInVcanKernel(
            """
            .build/debug/adasis can-interface vcan0 2>/dev/null; echo "status=$?"
            setpriv --reuid=65534 --regid=65534 --clear-groups .build/debug/adasis can-interface vcan0 --bitrate 500000 2>&1 | grep adasis; echo "status=$?"
            .build/debug/adasis can-interface nosuch0 2>&1 | grep adasis
            """)
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)")
        #expect(result.stdout.contains("vcan0: state not supported (no CAN controller)"), "\(result.stdout)")
        #expect(
            result.stdout.contains("permission denied; changing a CAN interface needs CAP_NET_ADMIN"),
            "\(result.stdout)")
        #expect(result.stdout.contains("no interface named 'nosuch0'"), "\(result.stdout)")
    }
}

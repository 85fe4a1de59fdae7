import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
    import Glibc
#endif
import GNSS
@testable import GNSSSources
import TestSupport

/// A listening TCP socket on 127.0.0.1 with a kernel-chosen port; closed by `close()`.
private func listeningSocket() throws -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    try #require(bound && listen(fd, 4) == 0)
    return (fd, UInt16(bigEndian: address.sin_port))
}

/// A fake gpsd: for each session it accepts one client, reads its command line, sends the lines,
/// and closes the connection. After the last session it stops listening.
private final class FakeGPSD: Sendable {
    let port: UInt16
    private let commands = Mutex<[String]>([])
    private let done = Mutex(false)

    init(sessions: [[Substring]]) throws {
        let (listener, port) = try listeningSocket()
        self.port = port
        let thread = Thread { [self] in
            for lines in sessions {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { break }
                var command: [UInt8] = []
                var byte: UInt8 = 0
                while recv(client, &byte, 1, 0) == 1, byte != UInt8(ascii: "\n") { command.append(byte) }
                self.commands.withLock { $0.append(String(decoding: command, as: UTF8.self) + "\n") }
                let payload = Array(lines.map { $0 + "\r\n" }.joined().utf8)
                _ = payload.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
            close(listener)
            self.done.withLock { $0 = true }
        }
        thread.start()
    }

    /// The command lines clients sent, one per session served.
    var received: [String] { commands.withLock { $0 } }
    /// Whether every session was served.
    var finished: Bool { done.withLock { $0 } }
}

/// Records requested sleeps instead of sleeping.
private final class SleepRecorder: Sendable {
    private let log = Mutex<[Duration]>([])
    var sleeps: [Duration] { log.withLock { $0 } }
    var sleep: @Sendable (Duration) -> Void { { [self] duration in self.log.withLock { $0.append(duration) } } }
}

@Suite("gpsd client", .serialized)
struct GPSDClientTests {
    @Test("invalid configurations are rejected with a typed error")
    func invalidConfiguration() {
        for configuration in [
            GPSDClient.Configuration(host: ""), GPSDClient.Configuration(port: 0),
            GPSDClient.Configuration(receiveTimeout: .zero),
        ] {
            #expect(throws: GPSDClientError.self) { _ = try GPSDClient(configuration: configuration) }
        }
    }

    @Test("reads fixes from a gpsd that hangs up, reconnects at once, sends ?WATCH each time")
    func reconnectsAfterHangUp() throws {
        let lines = gpsdCapture.split(whereSeparator: \.isNewline)
        try #require(lines.count == 42)
        let server = try FakeGPSD(sessions: [Array(lines[..<20]), Array(lines[20...])])
        let recorder = SleepRecorder()
        var client = try GPSDClient(
            configuration: .init(port: server.port, receiveTimeout: .milliseconds(500)),
            sleep: recorder.sleep)
        var fixes: [GNSSFix] = []
        for _ in 0..<200 where fixes.count < 11 {
            if let fix = client.nextFix() { fixes.append(fix) }
        }
        #expect(fixes.map(\.time) == (9...19).map { berlinStart + Double($0) })
        #expect(client.connections == 2)
        #expect(client.reconnects == 1)
        #expect(client.connectionsLost >= 1)
        #expect(recorder.sleeps.isEmpty, "a connection that delivered data is retried without waiting")
        #expect(server.received == [GPSDClient.watchCommand, GPSDClient.watchCommand])
        #expect(client.decoder.malformedLines == 0)
    }

    @Test("with gpsd gone, connect attempts follow the backoff in slices no longer than the receive timeout")
    func backoffWhileRefused() throws {
        let port = try freePort()
        let recorder = SleepRecorder()
        var client = try GPSDClient(
            configuration: .init(port: port, receiveTimeout: .seconds(2)),
            sleep: recorder.sleep)
        var waits: [Duration] = []  // total wait before each attempt after the first
        var attempts = 0
        var sleptAtLastAttempt = Duration.zero
        for _ in 0..<60 {
            let before = recorder.sleeps.count
            #expect(client.nextFix() == nil)
            #expect(recorder.sleeps[before...].allSatisfy { $0 <= .seconds(2) })
            if client.failedAttempts > attempts {
                let slept = recorder.sleeps.reduce(.zero, +)
                if attempts > 0 { waits.append(slept - sleptAtLastAttempt) }
                attempts = client.failedAttempts
                sleptAtLastAttempt = slept
            }
        }
        #expect(Array(waits.prefix(6)) == [1, 2, 4, 8, 16, 30].map { Duration.seconds($0) })
        #expect(client.lastError?.code == .connectionRefused)
        #expect(client.lastError?.description.contains("is gpsd running?") == true)
        #expect(client.connections == 0 && !client.isConnected)
    }

    @Test("an unresolvable host is .hostNotFound, retried with backoff")
    func unknownHost() throws {
        let recorder = SleepRecorder()
        var client = try GPSDClient(
            configuration: .init(host: "no-such-host.invalid", port: 2947),
            sleep: recorder.sleep)
        #expect(client.nextFix() == nil)
        #expect(client.lastError?.code == .hostNotFound)
        #expect(client.backoff.consecutiveFailures == 1)
    }
}

/// The path of gpsfake, if installed.
/// The GNSS tests' fixtures (shared, not copied).
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("GNSSTests/Fixtures")

/// Real gpsd 3.22 output: `gpspipe -w` against `gpsfake -1 -c 0.05 berlin-2026.nmea` (empty if
/// the file is missing, which makes the tests that use it fail on their counts).
private let gpsdCapture =
    (try? String(contentsOf: fixtures.appendingPathComponent("gpsd-3.22-watch.jsonl"), encoding: .utf8)) ?? ""

/// 2026-03-14T10:00:00Z, the first epoch of berlin-2026.nmea, in Unix seconds.
private let berlinStart = 1_773_482_400.0

private let gpsfakePath = ["/usr/bin/gpsfake", "/usr/local/bin/gpsfake"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

/// The gpsd processes a gpsfake process started: their command line names its control socket
/// `$TMPDIR/gpsfake-PID.sock`.
private func gpsdProcesses(startedBy gpsfake: Int32) -> [Int32] {
    let marker = "gpsfake-\(gpsfake).sock"
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> Int32? in
        guard let pid = Int32(entry), pid != gpsfake,
            let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
        else { return nil }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return arguments.first?.hasSuffix("gpsd") == true && arguments.contains { $0.hasSuffix(marker) } ? pid : nil
    }
}

@Suite("gpsd client against gpsfake", .serialized)
struct GPSDClientGpsfakeTests {
    @Test(
        "reads at least 3 fixes from a real gpsd fed by gpsfake",
        .enabled(if: gpsfakePath != nil, "gpsfake is not installed (apt-get install gpsd gpsd-clients)"),
        .timeLimit(.minutes(2)))
    func readsFixesFromGpsfake() throws {
        let port = try freePort()
        let nmea = fixtures.appendingPathComponent("berlin-2026.nmea").path
        let gpsfake = Process()
        gpsfake.executableURL = URL(fileURLWithPath: gpsfakePath!)
        // The log repeats (no `-1`): on a loaded host gpsfake may play the whole file before the
        // client is watching, and a single pass would then leave nothing to read.
        gpsfake.arguments = ["-P", String(port), "-q", "-c", "0.1", nmea]
        gpsfake.standardOutput = FileHandle.nullDevice
        gpsfake.standardError = FileHandle.nullDevice
        // The control socket, which the killed gpsd leaves behind, goes to the scratch directory.
        gpsfake.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": ScratchDirectory.path]) { $1 }
        try gpsfake.run()
        defer {
            // gpsfake must be stopped by its process id, and its gpsd (which leaves SIGTERM pending
            // while it polls) killed explicitly, or both outlive the test.
            let daemons = gpsdProcesses(startedBy: gpsfake.processIdentifier)
            kill(gpsfake.processIdentifier, SIGTERM)
            for _ in 0..<50 where gpsfake.isRunning { usleep(100_000) }
            if gpsfake.isRunning { kill(gpsfake.processIdentifier, SIGKILL) }
            gpsfake.waitUntilExit()
            for pid in daemons { kill(pid, SIGKILL) }
        }
        var client = try GPSDClient(
            configuration: .init(
                port: port, receiveTimeout: .milliseconds(500),
                backoff: GPSDReconnectBackoff(initialDelay: .milliseconds(200), maximumDelay: .seconds(1))))
        // Three consecutive fixes in time order; where the repeated log starts again, the run of
        // fixes starts again too.
        var fixes: [GNSSFix] = []
        var received = 0
        for _ in 0..<120 where fixes.count < 3 {
            guard let fix = client.nextFix() else { continue }
            received += 1
            if let last = fixes.last, fix.time <= last.time { fixes.removeAll() }
            fixes.append(fix)
        }
        try #require(
            fixes.count >= 3,
            "fixes \(received), in order \(fixes.count), last error \(String(describing: client.lastError)), decoder lines \(client.decoder.lines)"
        )
        for fix in fixes {
            let k = fix.time - berlinStart
            #expect(k == k.rounded() && (0...19).contains(k), "time \(fix.time)")
            #expect(abs(fix.latitude - (52.52 + k * 0.00005)) < 1e-6)
            #expect(abs(fix.longitude - (13.405 + k * 0.00025)) < 1e-6)
            #expect(abs(fix.speed! - 20.012) < 0.01 && fix.heading == 71.3)
            #expect(fix.quality == .fix3D || fix.quality == .fix2D)
        }
        #expect(client.decoder.malformedLines == 0)
        #expect(client.decoder.ignoredReports["VERSION"] == 1)
    }
}

import Foundation
import Testing
import TestSupport

/// `adasis view` live mode's bad input: each refused at the start with the reason, no server.
struct ViewLiveCommandTests {
    static func view(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try requireBuiltAdasis()
        return try runAdasis(["view", "--map", try GoldenFrameTests.mapPath.get(), "--port", "0"] + arguments)
    }

    @Test func aMalformedCandumpLogIsRefusedWithItsLine() throws {
        let log = ScratchDirectory.url("view-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        try "(0.000000) vcan0 361#2005083200704000\n(0.010000) vcan0 36Z#00\n".write(
            to: log, atomically: true, encoding: .utf8)
        let result = try Self.view(["--candump", log.path])
        #expect(result.status != 0 && result.stdout.isEmpty)
        #expect(result.stderr.contains("--candump: \(log.path): line 2:"), "\(result.stderr)")
        let empty = try Self.view(["--candump", "/nonexistent/x.log"])
        #expect(empty.status != 0 && empty.stderr.contains("--candump: cannot read /nonexistent/x.log"))
    }

    @Test func anInterfaceThatIsNotThereIsRefused() throws {
        let result = try Self.view(["--can", "nosuchcan7"])
        #expect(result.status != 0 && result.stdout.isEmpty)
        #expect(result.stderr.contains("--can nosuchcan7:"), "\(result.stderr)")
    }

    @Test func oneSourceAndNoReplayOptionsInLiveMode() throws {
        let both = try Self.view(["--can", "vcan0", "--replay", "Data/drives/esplanadi.csv"])
        #expect(both.status != 0 && both.stderr.contains("give one of --replay TRACE"))
        let none = try Self.view([])
        #expect(none.status != 0 && none.stderr.contains("give one of --replay TRACE"))
        let route = try Self.view(["--can", "vcan0", "--route", "x.route"])
        #expect(route.status != 0 && route.stderr.contains("--route is for a replay"))
        let speed = try Self.view(["--candump", "x.log", "--speed", "0"])
        #expect(speed.status != 0 && speed.stderr.contains("--speed must be a positive multiple"))
    }
}

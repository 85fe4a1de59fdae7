import Foundation
import Testing
import TestSupport

/// dbus-daemon (Debian package dbus), if installed.
let dbusDaemon = ["/usr/bin/dbus-daemon"].first { FileManager.default.isExecutableFile(atPath: $0) }
/// In CI the bus tests must run (and fail loudly when dbus is missing); locally they are skipped.
let runsBusTests = dbusDaemon != nil || ProcessInfo.processInfo.environment["CI"] != nil

/// A private dbus-daemon on a socket in a temporary directory, stopped when released.
final class PrivateBus {
    let directory: URL
    let process = Process()
    /// The D-Bus address clients connect to.
    let address: String

    /// Starts a bus whose configuration is `policy` (the `<policy>`/`<include>` elements),
    /// listening on a fresh socket.
    init(policy: String) throws {
        directory = ScratchDirectory.url("bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        let config = directory.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(address)</listen>
          <auth>EXTERNAL</auth>
          \(policy)
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: dbusDaemon ?? "/usr/bin/dbus-daemon")
        process.arguments = ["--nofork", "--nopidfile", "--nosyslog", "--config-file=\(config.path)"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        try #require(FileManager.default.fileExists(atPath: socket), "dbus-daemon did not open \(socket)")
        // Callers of other users reach the socket (the policy decides what they may do).
        chmod(directory.path, 0o755)
        chmod(socket, 0o777)
    }

    deinit {
        // SIGKILL: the test process's threads block SIGTERM, and the child inherits that mask.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A bus that lets its users do anything (as a session bus does).
    static func open() throws -> PrivateBus {
        try PrivateBus(
            policy: """
                <policy context="default">
                  <allow user="*"/><allow own="*"/><allow send_destination="*" eavesdrop="true"/>
                  <allow eavesdrop="true"/>
                </policy>
                """)
    }

    /// Runs `busctl --address=… ARGUMENTS`.
    func busctl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess(URL(fileURLWithPath: "/usr/bin/busctl"), ["--address=\(address)"] + arguments)
    }
}

import Foundation
import Testing
import TestSupport
@testable import HorizonDaemon

@Suite("metrics file")
struct MetricsFileTests {
    @Test("the text replaces the file whole; no temporary file is left behind")
    func replaces() throws {
        let directory = ScratchDirectory.path("metrics")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/adasis.prom"
        try MetricsFile.write(String(repeating: "a_total 1\n", count: 1000), to: path)
        try MetricsFile.write("b 2\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "b 2\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["adasis.prom"])
    }

    @Test("the file is 0644 under the unit's umask 0077; a symbolic link planted at the temporary name is not followed")
    func modeAndSymlink() throws {
        let directory = ScratchDirectory.path("metrics-mode")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/adasis.prom"
        let victim = directory + "/victim"
        try "keep\n".write(toFile: victim, atomically: false, encoding: .utf8)
        // The temporary name is PATH.partial-PID; a link there must be replaced, not written through.
        try FileManager.default.createSymbolicLink(atPath: path + ".partial-\(getpid())", withDestinationPath: victim)
        let old = umask(0o077)
        defer { umask(old) }
        try MetricsFile.write("c 3\n", to: path)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o644)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "c 3\n")
    }

    @Test("a directory that does not exist is a typed error naming the file, the step and what to check")
    func missingDirectory() {
        #expect {
            try MetricsFile.write("x 1\n", to: "/nonexistent-adasis/adasis.prom")
        } throws: { error in
            guard let error = error as? MetricsFile.WriteError else { return false }
            return error.path == "/nonexistent-adasis/adasis.prom" && error.step.hasPrefix("creating")
                && error.reason.contains("No such file") && error.description.contains("metrics.textfile")
        }
    }

    @Test("a target that cannot be replaced (a directory) fails at the rename and leaves no temporary file")
    func renameFails() throws {
        let directory = ScratchDirectory.path("metrics-rename")
        try FileManager.default.createDirectory(
            atPath: directory + "/adasis.prom/inside", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect {
            try MetricsFile.write("x 1\n", to: directory + "/adasis.prom")
        } throws: { ($0 as? MetricsFile.WriteError)?.step.hasPrefix("renaming") == true }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory) == ["adasis.prom"], "no partial file left")
    }
}

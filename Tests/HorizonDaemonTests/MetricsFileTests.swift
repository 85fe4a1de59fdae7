import Foundation
import Testing
@testable import HorizonDaemon

@Suite("metrics file")
struct MetricsFileTests {
    @Test("the text replaces the file whole; no temporary file is left behind")
    func replaces() throws {
        let directory = NSTemporaryDirectory() + "adasis-metrics-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/adasis.prom"
        try MetricsFile.write(String(repeating: "a_total 1\n", count: 1000), to: path)
        try MetricsFile.write("b 2\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "b 2\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["adasis.prom"])
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
        let directory = NSTemporaryDirectory() + "adasis-metrics-rename-\(getpid())"
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

import Foundation
import RoadMap
import RoadMapStore
import Testing
import TestSupport

@Suite("atomic file replacement")
struct AtomicFileTests {
    private static func directory() throws -> String {
        let path = ScratchDirectory.path("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("the bytes replace the old file, and no temporary file is left")
    func replaces() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/out.txt"
        try AtomicFile.replace(path, with: Array("old".utf8))
        try AtomicFile.replace(path, with: Array("new\n".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.txt"])
    }

    @Test("a failing writer keeps the old file and leaves nothing behind; its error is the reason")
    func failingWriter() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "refused" } }
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/out.txt"
        try AtomicFile.replace(path, with: Array("old".utf8))
        #expect {
            try AtomicFile.replace(path) { temporary in
                try AtomicFile.replace(temporary, with: Array("half".utf8))
                throw Refused()
            }
        } throws: { error in
            (error as? AtomicFileError)?.reason == "refused"
                && (error as? AtomicFileError)?.step.hasPrefix("writing") == true
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.txt"])
    }

    @Test("a missing directory is an error naming the step")
    func missingDirectory() {
        #expect {
            try AtomicFile.replace("/nonexistent-\(getpid())/out.txt", with: [1])
        } throws: { error in
            (error as? AtomicFileError)?.step.hasPrefix("creating") == true
        }
    }
}

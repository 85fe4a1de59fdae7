import Foundation
import Testing
@testable import GNSS
import TestSupport

@Suite("trace files by extension")
struct TraceFileTests {
    static func write(_ name: String, _ text: String) throws -> String {
        let path = ScratchDirectory.path("trace-\(name)")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("NMEA with CRLF line ends (as receivers send them) gives one fix per epoch, times from the first fix")
    func nmeaWithCRLF() throws {
        let path = try Self.write(
            "drive.nmea",
            """
            $GPRMC,100000.00,A,6010.28231,N,02456.14481,E,0.00,154.9,020326,,,A*63\r
            $GPGGA,100000.00,6010.28231,N,02456.14481,E,1,08,1.0,12.0,M,18.5,M,,*5B\r
            $GPRMC,100001.00,A,6010.28114,N,02456.14591,E,4.67,154.9,020326,,,A*63\r
            $GPGGA,100001.00,6010.28114,N,02456.14591,E,1,08,1.0,12.0,M,18.5,M,,*5E\r

            """)
        defer { unlink(path) }
        let trace = try TraceFile(path: path)
        #expect(trace.fixes.map(\.time) == [0, 1])
        #expect(abs(trace.fixes[1].latitude - (60 + 10.28114 / 60)) < 1e-9)
        #expect(trace.timeOrigin > 1_772_000_000)  // 2026-03-02 10:00 UTC as Unix time
    }

    @Test("CSV with CRLF line ends reads like LF")
    func csvWithCRLF() throws {
        let path = try Self.write(
            "drive.csv", "time_s,lat,lon,speed_mps,heading_deg\r\n10,60.17,24.94,5,90\r\n11,60.17,24.9401,5,90\r\n")
        defer { unlink(path) }
        let trace = try TraceFile(path: path)
        #expect(trace.fixes.map(\.time) == [0, 1])
    }

    @Test("an unknown extension and an empty file are clear errors")
    func errors() throws {
        let unknown = try Self.write("drive.kml", "<kml/>")
        let empty = try Self.write("empty.nmea", "")
        defer { unlink(unknown); unlink(empty) }
        #expect { try TraceFile(path: unknown) } throws: { "\($0)".contains("unknown trace format") }
        #expect { try TraceFile(path: empty) } throws: { "\($0)".contains("no usable fixes") }
    }

    @Test(
        "an NMEA log with line noise (bytes that are not UTF-8 in 30 % of sentences) keeps every clean fix and counts the rest (issue 16)"
    )
    func nmeaWithLineNoise() throws {
        // The repository's Mannerheimintie drive, with two random bytes (0x80…0xFF, never UTF-8 on
        // their own) written into every third sentence, as a noisy serial port does.
        let clean = try Data(contentsOf: Repository.url("Data/drives/mannerheimintie.nmea"))
        var generator = SplitMix64(seed: 16)
        var noisy = Data()
        var damaged = 0
        for (index, line) in clean.split(separator: UInt8(ascii: "\n")).enumerated() {
            var bytes = Array(line)
            if index % 3 == 0 && bytes.count > 10 {
                let at = 5 + generator.below(bytes.count - 8)
                bytes.insert(contentsOf: [0x80 | generator.byte(), 0x80 | generator.byte()], at: at)
                damaged += 1
            }
            noisy.append(contentsOf: bytes + [UInt8(ascii: "\n")])
        }
        let path = ScratchDirectory.path("noisy.nmea")
        try noisy.write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let reference = try TraceFile(path: Repository.url("Data/drives/mannerheimintie.nmea").path)
        let trace = try TraceFile(path: path)
        // Every damaged sentence is counted; an epoch whose RMC (the date) was damaged before any
        // date was known is dropped and counted too.
        let sentences = trace.skipped.countsByReason.filter { $0.key != "no date yet" }
        #expect(sentences.values.reduce(0, +) == damaged, "\(trace.skipped)")
        #expect(sentences.keys.allSatisfy { $0 == "checksum mismatch" || $0 == "not an NMEA sentence" })
        // The first damaged sentence is line 1 (index 0); the examples carry their lines.
        #expect(trace.skipped.examples.first?.line == 1)
        // An epoch survives while one of its sentences does: nearly every fix is still there.
        #expect(trace.fixes.count > reference.fixes.count * 9 / 10, "\(trace.fixes.count) of \(reference.fixes.count)")
    }
}

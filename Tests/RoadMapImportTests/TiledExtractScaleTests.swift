import Foundation
import TestSupport
import Testing
import RoadMap
@testable import RoadMapImport

/// The import at 9 × the sample: `Tools/make-tiled-extract` lays 3 × 3 copies of the Helsinki
/// extract side by side (apart, renumbered), and every count of the import must be 9 × the
/// sample's. The copies do not touch, so even the counts that depend on the extract's edge
/// (clipped ways, dropped node references, boundaries cut by the extract) grow by exactly 9: each
/// copy keeps its own edge. Logic that depends on sizes (a group limit, a quadratic pass, a
/// cache evicting what it still needs) shows up as a count that does not: the dual-carriageway
/// pairing used to pair 213 links in the sample and far fewer than 9 × 213 at scale.
@Suite("import at scale: 3 × 3 tiled sample", .serialized)
struct TiledExtractScaleTests {
    @Test("every count of the import report is 9 × the sample's; the map version and country are the same")
    func countsScaleByNine() throws {
        let directory = ScratchDirectory.url("tiled")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = Repository.url("Data/helsinki.osm.pbf").path
        let tiled = directory.appendingPathComponent("helsinki-3x3.osm.pbf").path

        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tool.arguments = [
            "python3", Repository.url("Tools/make-tiled-extract").path, sample, "3", tiled,
        ]
        let errors = Pipe()
        tool.standardError = errors
        try tool.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        tool.waitUntilExit()
        try #require(tool.terminationStatus == 0, "make-tiled-extract failed: \(message)")

        let options = RoadGraphOptions(country: try Country(alpha2: "FI"))
        let one = try MapImport.run(
            input: sample, output: directory.appendingPathComponent("1.map").path, options: options)
        let nine = try MapImport.run(
            input: tiled, output: directory.appendingPathComponent("9.map").path, options: options)

        let small = try Self.counts(one.importReport), large = try Self.counts(nine.importReport)
        #expect(Set(small.keys) == Set(large.keys))
        for (name, value) in small.sorted(by: { $0.key < $1.key }) {
            let expected = value * 9
            // Lengths are metres, not counts: the copies lie up to 0.04° farther north, where a
            // degree of longitude is a little shorter (measured: 0.02 % less in all).
            #expect(
                abs((large[name] ?? -1) - expected) <= (name == "totalLength" ? 1e-3 * expected : 0),
                "\(name): \(value) in the sample, \(large[name] ?? -1) at 3 × 3 (expected \(expected))")
        }
        #expect(small["dualCarriagewayLinks"] == 213)
        #expect(one.mapVersionYear == nine.mapVersionYear && one.mapVersionQuarter == nine.mapVersionQuarter)
        #expect(one.countries == nine.countries)
    }

    /// The report's numbers by field name (optional counts that are absent are left out).
    static func counts(_ report: ImportReport) throws -> [String: Double] {
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(report)) as? [String: Any] ?? [:]
        return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }
}

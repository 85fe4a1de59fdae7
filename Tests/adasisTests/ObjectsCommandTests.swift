import Foundation
import Testing
import TestSupport

/// `adasis objects` on the two-country map: add, list, remove, clear, and the refusals (malformed
/// GeoJSON, a polygon over no road, a duplicate id) that leave the stored objects as they were.
@Suite("adasis objects", .serialized)
struct ObjectsCommandTests {
    @Test("add, list, remove and clear; bad input is refused with a clear message and the store unchanged")
    func commands() throws {
        try requireBuiltAdasis()
        let directory = ScratchDirectory.url("objects-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let map = directory.appendingPathComponent("border.map").path
        #expect(try runAdasis(["map", "import", "Data/border/de-at-border.osm.pbf", "-o", map]).status == 0)
        func file(_ name: String, _ text: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let point = try file(
            "point.geojson",
            #"{"type":"Feature","id":"school-1","geometry":{"type":"Point","coordinates":[12.96,47.8001]}}"#)
        let lake = try file(
            "lake.geojson",
            #"{"type":"Feature","id":"lake","geometry":{"type":"Polygon","coordinates":[[[12.90,47.805],[12.91,47.805],[12.91,47.81],[12.90,47.805]]]}}"#
        )
        let broken = try file("broken.geojson", #"{"type":"Feature","id":"x","geometry":{"type":"Point"}}"#)

        let added = try runAdasis(["objects", "add", "--map", map, point])
        #expect(added.status == 0 && added.stdout.hasPrefix("added school-1 (number 1): L"), "\(added)")
        let listed = try runAdasis(["objects", "list", "--map", map])
        #expect(listed.stdout.hasPrefix("school-1\t1\tpoint\tL"), "\(listed.stdout)")
        var status = stat()
        #expect(stat(map + ".objects", &status) == 0 && status.st_mode & 0o777 == 0o600)

        let refusals: [(String, String)] = [
            (point, "school-1: an object with id 'school-1' is stored already"),
            (lake, "lake: not matched to \(map): no road runs inside the polygon"),
            (broken, "malformed GeoJSON: geometry.coordinates must be a position [longitude, latitude]"),
        ]
        for (input, message) in refusals {
            let refused = try runAdasis(["objects", "add", "--map", map, input])
            #expect(refused.status != 0 && refused.stderr.contains(message), "\(refused.stderr)")
            #expect(try runAdasis(["objects", "list", "--map", map]).stdout == listed.stdout)
        }
        let unknown = try runAdasis(["objects", "remove", "--map", map, "nothing"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no object with id 'nothing'"))
        #expect(try runAdasis(["objects", "remove", "--map", map, "school-1"]).status == 0)
        #expect(try runAdasis(["objects", "list", "--map", map]).stdout.isEmpty)
        #expect(try runAdasis(["objects", "add", "--map", map, point]).stdout.contains("(number 2)"))
        #expect(try runAdasis(["objects", "clear", "--map", map]).stdout == "removed 1 objects\n")
        #expect(try runAdasis(["objects", "list", "--map", map]).stdout.isEmpty)
    }
}

import Foundation
import GNSS
import Horizon
import RoadMap
import RoadMapStore
import Testing
import TestSupport
@testable import ADASISProvider

/// Custom objects on the two-country map: matched from GeoJSON (point, line, polygon), stored
/// beside the map, and seen in the horizon with entered/exited events like the map's own objects.
@Suite("custom objects", .serialized)
struct CustomObjectTests {
    /// A point on the southern road (at 12.96, 748 m east of the border node) for westbound traffic,
    /// a line along it in Germany (12.945 → 12.925, drawn westward), and a polygon over the
    /// western connector (12.915…12.925).
    static let point = #"""
        {"type": "Feature", "id": "school-1", "geometry": {"type": "Point", "coordinates": [12.96, 47.8001]},
         "properties": {"heading": 270, "name": "school"}}
        """#
    static let line = #"""
        {"type": "Feature", "id": "roadworks", "geometry": {"type": "LineString",
         "coordinates": [[12.945, 47.80], [12.935, 47.80002], [12.925, 47.80]]}}
        """#
    static let polygon = #"""
        {"type": "Feature", "id": "zone-a", "geometry": {"type": "Polygon", "coordinates":
         [[[12.915, 47.795], [12.925, 47.795], [12.925, 47.825], [12.915, 47.825], [12.915, 47.795]]]}}
        """#
    static let lake = #"""
        {"type": "Feature", "id": "lake", "geometry": {"type": "Polygon", "coordinates":
         [[[12.90, 47.805], [12.91, 47.805], [12.91, 47.81], [12.90, 47.81], [12.90, 47.805]]]}}
        """#

    static func object(_ text: String) throws -> CustomObject { try CustomObject(geoJSON: Data(text.utf8)) }

    static func temporaryStore() -> String {
        ScratchDirectory.path("objects-\(UUID()).objects")
    }

    @Test("a point, a line and a polygon match the links and offsets they lie on; one over no road does not")
    func matching() throws {
        let map = try BorderDrive.map()
        let matcher = CustomObjectMatcher(network: map)
        let metresPerDegree = GeoPoint(latitude: 47.8, longitude: 12.0).distance(
            to: GeoPoint(latitude: 47.8, longitude: 13.0))
        let point = try matcher.match(try Self.object(Self.point))
        #expect(point.count == 1 && point[0].direction == .backward && point[0].start == point[0].end)
        // The Austrian way starts at the border node (12.95): the point is 0.01° along it.
        #expect(abs(point[0].start - 0.01 * metresPerDegree) < 5, "\(point)")
        let line = try matcher.match(try Self.object(Self.line))
        #expect(line.count == 1 && line[0].direction == .backward, "\(line)")
        #expect(abs(line[0].start - 0.005 * metresPerDegree) < 5 && abs(line[0].end - 0.025 * metresPerDegree) < 5)
        let polygon = try matcher.match(try Self.object(Self.polygon))
        // Both primary roads cross the polygon (split at the connector junction: two links each),
        // and the connector lies wholly inside it.
        #expect(polygon.count == 5 && polygon.allSatisfy { $0.direction == nil }, "\(polygon)")
        let inside = polygon.map { $0.end - $0.start }.reduce(0, +)
        #expect(abs(inside - (4 * 0.005 * metresPerDegree + 0.02 * 111_195)) < 25, "\(inside) m inside")
        #expect(throws: CustomObjectMatchError.noRoadInside) { try matcher.match(try Self.object(Self.lake)) }
        let far = CustomObject(id: "far", geometry: .point(GeoPoint(latitude: 47.81, longitude: 12.94)))
        #expect(throws: CustomObjectMatchError.noRoadNear(GeoPoint(latitude: 47.81, longitude: 12.94), radius: 30)) {
            try matcher.match(far)
        }
    }

    @Test("the store keeps objects across reopening, mode 0600; a duplicate or unknown id changes nothing")
    func store() throws {
        let map = try BorderDrive.map()
        let path = Self.temporaryStore()
        defer { unlink(path) }
        let matcher = CustomObjectMatcher(network: map)
        let store = try CustomObjectStore(path: path, create: true)
        for text in [Self.point, Self.line] {
            let object = try Self.object(text)
            try store.add(object, pieces: try matcher.match(object))
        }
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        let before = try store.objects()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: CustomObjectStoreError.duplicateID("school-1")) {
            try store.add(try Self.object(Self.point), pieces: [])
        }
        #expect(throws: CustomObjectStoreError.unknownID("nothing")) { try store.remove(id: "nothing") }
        #expect(try store.objects() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        let reopened = try CustomObjectStore(path: path, create: false)
        #expect(try reopened.objects() == before && before.map(\.object.id) == ["school-1", "roadworks"])
        #expect(before[0].object.name == "school" && before[0].object.heading == 270)
        try reopened.remove(id: "school-1")
        #expect(try reopened.objects().map(\.object.id) == ["roadworks"])
        #expect(try reopened.removeAll() == 1 && (try reopened.objects()).isEmpty)
        #expect(throws: CustomObjectStoreError.notAStore(path: path + ".none", reason: "no such file")) {
            try CustomObjectStore(path: path + ".none", create: false)
        }
    }

    /// `underAnotherOverlay`: with an overlay laid over the custom objects' (as the daemon lays
    /// the traffic's), the objects keep the client's ids.
    @Test(
        "custom objects appear on the main path and are entered and exited once each on the drive",
        arguments: [false, true])
    func inTheHorizon(underAnotherOverlay: Bool) throws {
        let map = try BorderDrive.map()
        let matcher = CustomObjectMatcher(network: map)
        var placed: [PlacedCustomObject] = []
        for (number, text) in [Self.point, Self.line, Self.polygon].enumerated() {
            let object = try Self.object(text)
            placed.append(
                PlacedCustomObject(number: Int64(number + 1), id: object.id, pieces: try matcher.match(object)))
        }
        let overlay = CustomObjectOverlay(base: map, objects: placed)
        let network = underAnotherOverlay ? FeatureOverlayNetwork(base: overlay, featuresOfLink: [:]) : overlay
        let pipeline = try HorizonPipeline(network: network)
        var tracker = RoadObjectTracker()
        var events: [String] = []
        for fix in try BorderDrive.fixes() {
            try pipeline.process(fix)
            guard let main = pipeline.engine.tree.mainPathID else { continue }
            let objects = pipeline.engine.roadObjects(on: main).filter { $0.object.type == .userDefined }
            for event in tracker.update(mainPathObjects: objects, vehicleOffset: pipeline.engine.vehicleOffset) {
                switch event {
                case .entered(let object, _): events.append("entered \(object.id)")
                case .exited(let object, _): events.append("exited \(object.id)")
                case .distanceUpdated: continue
                }
            }
        }
        // Westward: the point at 12.96, then the line (12.945 → 12.925), then the polygon
        // (12.925 → 12.915) straight after it; the point is passed on the same fix it is reached.
        #expect(
            events == [
                "entered school-1", "exited school-1", "entered roadworks", "exited roadworks", "entered zone-a",
                "exited zone-a",
            ], "\(events)")
    }
}

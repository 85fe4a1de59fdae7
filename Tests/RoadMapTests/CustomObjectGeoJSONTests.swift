import Foundation
import Testing

@testable import RoadMap

/// GeoJSON Features as custom objects: what is read, and a specific error for each malformed part.
@Suite("custom objects from GeoJSON")
struct CustomObjectGeoJSONTests {
    static func parse(_ text: String) throws(CustomObjectGeoJSONError) -> CustomObject {
        try CustomObject(geoJSON: Data(text.utf8))
    }

    @Test("point with heading, line and polygon; numeric ids and properties.id")
    func wellFormed() throws {
        let point = try Self.parse(
            #"{"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[24.94,60.17]},"properties":{"heading":90}}"#
        )
        #expect(
            point == CustomObject(id: "7", geometry: .point(GeoPoint(latitude: 60.17, longitude: 24.94)), heading: 90))
        let line = try Self.parse(
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[24.94,60.17],[24.95,60.17]]},"properties":{"id":"l","name":"works"}}"#
        )
        #expect(line.id == "l" && line.name == "works" && line.heading == nil)
        let polygon = try Self.parse(
            #"{"type":"Feature","id":"p","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#)
        guard case .polygon(let ring) = polygon.geometry else {
            Issue.record("not a polygon")
            return
        }
        #expect(ring.count == 4)
    }

    @Test(
        "malformed Features are refused naming what is wrong",
        arguments: [
            ("{", "not JSON"),
            ("[]", "expected a JSON object"),
            (#"{"type":"FeatureCollection","features":[]}"#, "expected \"type\": \"Feature\""),
            (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}"#, "has no \"id\""),
            (#"{"type":"Feature","id":"","geometry":{"type":"Point","coordinates":[1,2]}}"#, "1 to 200 characters"),
            (#"{"type":"Feature","id":"a"}"#, "has no geometry"),
            (
                #"{"type":"Feature","id":"tunnel:w4","geometry":{"type":"Point","coordinates":[1,2]}}"#,
                "choose an id without the prefix 'tunnel:'"
            ),
            (
                #"{"type":"Feature","id":"a","geometry":{"type":"MultiPoint","coordinates":[[1,2]]}}"#,
                "'MultiPoint': use Point, LineString or Polygon"
            ),
            (#"{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[200,2]}}"#, "outside"),
            (
                #"{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":"here"}}"#,
                "must be a position [longitude, latitude]"
            ),
            (
                #"{"type":"Feature","id":"a","geometry":{"type":"LineString","coordinates":[[1,2]]}}"#,
                "at least 2 positions"
            ),
            (
                #"{"type":"Feature","id":"a","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}}"#,
                "the last equal to the first"
            ),
            (
                #"{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"heading":400}}"#,
                "properties.heading"
            ),
        ])
    func malformed(text: String, problem: String) {
        #expect {
            try Self.parse(text)
        } throws: { error in
            (error as? CustomObjectGeoJSONError).map { "\($0)".contains(problem) } ?? false
        }
    }
}

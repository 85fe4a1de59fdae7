import Foundation
import GNSS
import Horizon
import RoadMap
import RoadMapStore
import TestSupport
import Testing

@testable import HorizonPicture

/// The horizon as GeoJSON features (what `adasis view` draws), on the sample map and drives.
@Suite("horizon map features")
struct HorizonFeaturesTests {
    struct Moment {
        var features: GeoJSONFeatureCollection
        var engine: HorizonEngine
        var matched: GeoPoint?
    }

    static func moment(_ name: String, at seconds: Double) throws -> Moment {
        let map = try MapFile(path: try HorizonPictureTests.mapPath.get())
        let fixes = try TraceFile(path: Repository.url("Data/drives/\(name).csv").path).fixes
        let matcher = OnlineMapMatcher(network: map)
        let engine = try HorizonEngine(network: map)
        for fix in fixes {
            let result = try matcher.match(fix)
            _ = try engine.update(result)
            guard fix.time + 1e-6 >= seconds else { continue }
            let features = try HorizonFeatures.collection(
                result: result, fix: GeoPoint(latitude: fix.latitude, longitude: fix.longitude), engine: engine,
                network: map)
            return Moment(features: features, engine: engine, matched: result.state.position?.point)
        }
        throw HorizonPictureTests.DriveTooShort(drive: name, seconds: seconds)
    }

    static func line(_ feature: GeoJSONFeature) -> [GeoPoint] {
        if case .line(let points) = feature.geometry { return points }
        return []
    }

    static func length(_ points: [GeoPoint]) -> Double {
        zip(points, points.dropFirst()).map { $0.distance(to: $1) }.reduce(0, +)
    }

    @Test(
        "the main path's links join end to end from the matched position, as long as the horizon ahead",
        arguments: ["esplanadi", "kamppi", "mannerheimintie"])
    func mainPathJoinsFromTheVehicle(drive: String) throws {
        let moment = try Self.moment(drive, at: 60)
        let main = moment.features.features.filter { $0.properties["kind"] == .string("main_path") }
        try #require(main.count >= 2)
        let matched = try #require(moment.matched)
        #expect(Self.line(main[0]).first!.distance(to: matched) < 1)
        for (a, b) in zip(main, main.dropFirst()) {
            #expect(Self.line(a).last!.distance(to: Self.line(b).first!) < 1)
        }
        let path = try #require(moment.engine.tree.mainPath)
        let ahead = path.links.last!.endOffset - moment.engine.vehicleOffset!
        let drawn = main.map { Self.length(Self.line($0)) }.reduce(0, +)
        #expect(abs(drawn - ahead) < max(2, ahead * 0.01), "drawn \(drawn) m, horizon \(ahead) m")
        let trailing = try #require(moment.features.features.first { $0.properties["kind"] == .string("trailing") })
        #expect(Self.line(trailing).last!.distance(to: matched) < 1)
        let ways = main.compactMap { feature -> Int64? in
            if case .integer(let way) = feature.properties["way_id"] { return way }
            return nil
        }
        #expect(ways == path.links.filter { $0.endOffset > moment.engine.vehicleOffset! }.map(\.wayID))
    }

    @Test("road objects on the main path lie on its drawn line")
    func objectsLieOnThePath() throws {
        let moment = try Self.moment("esplanadi", at: 60)
        let main = moment.features.features.filter { $0.properties["kind"] == .string("main_path") }
        let shape = main.flatMap(Self.line)
        let points = moment.features.features.filter {
            $0.properties["kind"] == .string("object") && $0.properties["main"] == .bool(true)
        }.compactMap { feature -> GeoPoint? in
            if case .point(let point) = feature.geometry { return point }
            return nil
        }
        try #require(!points.isEmpty, "no point object on the main path at 60 s")
        let trailing = moment.features.features.filter { $0.properties["kind"] == .string("trailing") }.flatMap(
            Self.line)
        for point in points {
            let distance = try #require((trailing + shape).project(point)).distance
            #expect(distance < 1, "object \(point) is \(distance) m off the main path")
        }
    }

    @Test("the collection is GeoJSON: a FeatureCollection of Features with [lon, lat] positions")
    func encodesAsGeoJSON() throws {
        let moment = try Self.moment("kamppi", at: 30)
        let object = try #require(
            try JSONSerialization.jsonObject(with: moment.features.encoded()) as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        let features = try #require(object["features"] as? [[String: Any]])
        let fix = try #require(features.first { ($0["properties"] as? [String: Any])?["kind"] as? String == "fix" })
        let coordinates = try #require((fix["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(coordinates[0] > 24 && coordinates[0] < 26 && coordinates[1] > 60 && coordinates[1] < 61)
    }
}

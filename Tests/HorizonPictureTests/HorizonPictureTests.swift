import Foundation
import GNSS
import Horizon
@testable import HorizonPicture
import RoadMap
import RoadMapImport
import RoadMapStore
import Testing
import TestSupport

/// Pictures of the horizon on the sample map and drives: what the SVG shows lies on the map.
@Suite("horizon pictures")
struct HorizonPictureTests {
    static let mapPath: Result<String, Error> = Result { try ImportedMap.file("Data/helsinki.osm.pbf") }

    struct DriveTooShort: Error {
        var drive: String, seconds: Double
    }

    /// The scene at `seconds` into the sample drive `name`.
    static func scene(_ name: String, at seconds: Double, map: MapFile) throws -> HorizonScene {
        let fixes = try TraceFile(path: Repository.url("Data/drives/\(name).csv").path).fixes
        let matcher = OnlineMapMatcher(network: map)
        let engine = try HorizonEngine(network: map)
        for fix in fixes {
            let result = try matcher.match(fix)
            _ = try engine.update(result)
            if fix.time + 1e-6 >= seconds {
                return try HorizonScene(
                    result: result, fix: GeoPoint(latitude: fix.latitude, longitude: fix.longitude), engine: engine,
                    network: map)
            }
        }
        throw DriveTooShort(drive: name, seconds: seconds)
    }

    /// The value of `attribute` on the element with `id`.
    static func attribute(_ attribute: String, ofElement id: String, in svg: String) throws -> String {
        let element = try #require(svg.range(of: "id=\"\(id)\""), "no element \(id)")
        let end = try #require(svg[element.upperBound...].range(of: "/>"))
        let text = svg[element.lowerBound..<end.lowerBound]
        let start = try #require(text.range(of: " \(attribute)=\""), "\(id) has no \(attribute)")
        let close = try #require(text[start.upperBound...].firstIndex(of: "\""))
        return String(text[start.upperBound..<close])
    }

    @Test(
        "the main path's polyline lies on its links, starts at the matched position, side paths drawn",
        arguments: ["esplanadi", "kamppi", "mannerheimintie"])
    func mainPathOnTheMap(drive: String) throws {
        let map = try MapFile(path: try Self.mapPath.get())
        let scene = try Self.scene(drive, at: 40, map: map)
        let svg = HorizonSVG().document(scene)
        let origin = try Self.attribute("data-origin", ofElement: "horizon", in: svg)
        let originParts = origin.split(separator: " ").compactMap { Double($0) }
        try #require(originParts.count == 2)
        let projection = LocalProjection(origin: GeoPoint(latitude: originParts[0], longitude: originParts[1]))
        let points = try Self.attribute("points", ofElement: "main-path", in: svg).split(separator: " ").map {
            let xy = $0.split(separator: ",").compactMap { Double($0) }
            return projection.unproject(x: xy[0], y: -xy[1])
        }
        #expect(points.count >= 5, "\(drive): a main path of \(points.count) points")
        let linkIDs = try Self.attribute("data-links", ofElement: "main-path", in: svg).split(separator: " ")
        let links = try scene.mainPathLinks.map { try map.link($0.link) }
        #expect(linkIDs.count == links.count && !links.isEmpty)
        for point in points {
            let distance = links.compactMap { $0.geometry.project(point)?.distance }.min() ?? .infinity
            #expect(distance < 0.5, "\(drive): a main-path point \(distance) m from the path's links")
        }
        let matched = try #require(scene.matched, "\(drive) not matched at 40 s")
        #expect(points[0].distance(to: matched) < 1, "the main path starts at the matched position")
        let ahead = zip(points, points.dropFirst()).map { $0.distance(to: $1) }.reduce(0, +)
        #expect(ahead > 500, "\(drive): \(ahead) m of main path drawn")
        #expect(svg.contains("class=\"side-path level1\"") == scene.sidePaths.contains { $0.level == 1 })
        #expect(!scene.sidePaths.isEmpty, "\(drive): the horizon in the city has side paths")
        #expect(scene.roads.count > 20)
        #expect(svg.hasPrefix("<svg id=\"horizon\" ") && svg.hasSuffix("</svg>\n"))
    }

    @Test("splitting a line at an offset keeps both parts on it")
    func split() {
        let line = [GeoPoint(latitude: 60, longitude: 25), GeoPoint(latitude: 60.001, longitude: 25)]
        let length = line[0].distance(to: line[1])
        let (before, after) = HorizonScene.split(line, at: length / 4)
        #expect(before.count == 2 && after.count == 2)
        #expect(abs(before[0].distance(to: before[1]) - length / 4) < 0.01)
        #expect(abs(after[0].distance(to: after[1]) - 3 * length / 4) < 0.01)
    }
}

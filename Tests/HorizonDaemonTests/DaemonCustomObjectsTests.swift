import DaemonConfiguration
import Foundation
import Horizon
import RoadMap
import RoadMapImport
import RoadMapStore
import Testing
import TestSupport
@testable import HorizonDaemon

/// `adasis run` reads the custom objects stored beside its map: their pieces are on the links the
/// pipeline reads; an unreadable store refuses the start (or the reload) naming `map.path`.
@Suite("adasis run: custom objects beside the map")
struct DaemonCustomObjectsTests {
    @Test("stored objects are laid over the map; a damaged store is a configuration error")
    func customObjects() throws {
        let directory = ScratchDirectory.url("run-objects-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let mapPath = directory.appendingPathComponent("border.map").path
        _ = try MapImport.run(
            input: Repository.url("Data/border/de-at-border.osm.pbf").path, output: mapPath,
            options: RoadGraphOptions(country: nil))
        let map = try MapFile(path: mapPath)
        let configuration = try DaemonConfiguration(
            toml: "[map]\npath = \"\(mapPath)\"\n[can]\ninterface = \"vcan0\"\n", source: "run.toml")
        #expect(try RunDaemon.withCustomObjects(map, configuration, file: "run.toml") === map)

        let object = CustomObject(id: "school-1", geometry: .point(GeoPoint(latitude: 47.8001, longitude: 12.96)))
        let pieces = try CustomObjectMatcher(network: map).match(object)
        try CustomObjectStore(path: CustomObjectStore.path(forMap: mapPath), create: true).add(object, pieces: pieces)
        let network = try RunDaemon.withCustomObjects(map, configuration, file: "run.toml")
        let link = try network.link(pieces[0].link)
        let userDefined = link.features.filter {
            if case .zone(let piece) = $0.kind { return piece.type == .userDefined && piece.zone == 1 }
            return false
        }
        #expect(userDefined.count == 2 && userDefined.allSatisfy { abs($0.offset - pieces[0].start) < 1e-9 })

        try Data("not a database".utf8).write(to: URL(fileURLWithPath: CustomObjectStore.path(forMap: mapPath)))
        #expect {
            _ = try RunDaemon.withCustomObjects(map, configuration, file: "run.toml")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.key == "map.path" && error.problem.contains("is not an adasis object store")
        }
    }
}

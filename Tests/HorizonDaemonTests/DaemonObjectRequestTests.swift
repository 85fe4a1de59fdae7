import ADASISv2
import DaemonConfiguration
import Foundation
import GNSS
import GNSSSources
import Horizon
import RoadMap
import RoadMapStore
import RouteBus
import Testing
import TestSupport
@testable import HorizonDaemon

/// The custom-object interface's requests as the daemon carries them out (`CustomObjectDesk`),
/// and the core taking the change at once (a D-Bus call) or on SIGHUP (`reload` with the objects
/// read again): the horizon names the objects by the client's ids.
@Suite("adasis run: custom objects changed while running", .serialized)
struct DaemonObjectRequestTests {
    static let school =
        #"{"type":"Feature","id":"school-1","geometry":{"type":"Point","coordinates":[12.96,47.8001]}}"#
    static let lake =
        #"{"type":"Feature","id":"lake","geometry":{"type":"Polygon","coordinates":[[[12.90,47.805],[12.91,47.805],[12.91,47.81],[12.90,47.805]]]}}"#

    /// A copy of the border map in a fresh directory (its object store is the test's own).
    static func mapCopy() throws -> (directory: URL, map: String) {
        let directory = ScratchDirectory.url("desk-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let map = directory.appendingPathComponent("border.map").path
        try FileManager.default.copyItem(
            atPath: try ImportedMap.file("Data/border/de-at-border.osm.pbf", country: nil), toPath: map)
        return (directory, map)
    }

    @Test("add, list, remove, clear; every refusal names its error and leaves the store's bytes as they were")
    func desk() throws {
        let (directory, mapPath) = try Self.mapCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let desk = CustomObjectDesk(mapPath: mapPath, map: try MapFile(path: mapPath))
        #expect(desk.perform(.list).result == .success(.objects([])))
        #expect(desk.perform(.clear).result == .success(.cleared(count: 0)))
        #expect(!FileManager.default.fileExists(atPath: desk.storePath), "listing or clearing made a store")

        let (added, changed) = desk.perform(.add(feature: Self.school))
        guard case .success(.added(let id, let pieces)) = added else {
            Issue.record("\(added)")
            return
        }
        #expect(id == "school-1" && pieces.count == 1 && changed)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: desk.storePath))
        let refusals: [(ObjectRequest, ObjectRequestError.Kind, String)] = [
            (.add(feature: Self.school), .duplicateID, "an object with id 'school-1' is stored already"),
            (.add(feature: "{\"type\":"), .malformedGeoJSON, "malformed GeoJSON: not JSON"),
            (
                .add(feature: #"{"type":"Feature","id":"x","geometry":{"type":"Point"}}"#), .malformedGeoJSON,
                "geometry.coordinates must be a position"
            ),
            (.add(feature: Self.lake), .notMatched, "lake: not matched to \(mapPath): no road runs inside the polygon"),
            (.remove(id: "nothing"), .unknownID, "no object with id 'nothing' is stored"),
        ]
        for (request, kind, message) in refusals {
            let (result, changed) = desk.perform(request)
            guard case .failure(let error) = result else {
                Issue.record("\(request) was not refused: \(result)")
                continue
            }
            #expect(error.kind == kind && error.message.contains(message) && !changed, "\(error)")
            #expect(error.name == "org.adasis.Horizon1.Error.\(kind.rawValue)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: desk.storePath)) == bytes, "\(request) changed the store")
        }
        #expect(
            desk.perform(.list).result
                == .success(.objects([ObjectSummary(id: "school-1", geometry: "point", pieces: pieces)])))
        #expect(desk.perform(.remove(id: "school-1")).changed)
        #expect(desk.perform(.list).result == .success(.objects([])))
        _ = desk.perform(.add(feature: Self.school))
        #expect(desk.perform(.clear).result == .success(.cleared(count: 1)))
    }

    @Test("an object added while running is in the horizon at once, named by its id; SIGHUP reads a removal")
    func coreTakesTheChange() throws {
        let (directory, mapPath) = try Self.mapCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let map = try MapFile(path: mapPath)
        let configuration = try DaemonConfiguration(
            toml: "[map]\npath = \"\(mapPath)\"\n[can]\ninterface = \"vcan0\"\n[messages]\npreset = \"all\"\n",
            source: "run.toml")
        var core = try DaemonCore(
            configuration: configuration, path: "run.toml",
            map: try RunDaemon.withCustomObjects(map, configuration, file: "run.toml"), metadata: map.metadata,
            watchdogInterval: nil, at: 0)
        // 60 s of the drive west from 12.99: the vehicle is near 12.974, the school (12.96) ahead.
        let fixes = try TraceFile(path: Repository.url("Data/border/border-drive.csv").path).fixes.prefix(61)
        for fix in fixes { _ = core.receive(FixInbox.Arrival(fix: fix, receivedAt: fix.time)) }
        func mainPathObjects() -> [String] {
            guard let main = core.pipeline.engine.tree.mainPathID else { return [] }
            return core.pipeline.engine.roadObjects(on: main).filter { $0.object.type == .userDefined }.map {
                $0.object.id.rawValue
            }
        }
        try #require(core.pipeline.engine.tree.mainPathID != nil)
        #expect(mainPathObjects().isEmpty)

        let desk = CustomObjectDesk(mapPath: mapPath, map: map)
        #expect(desk.perform(.add(feature: Self.school)).changed)
        _ = core.useCustomObjects(try RunDaemon.withCustomObjects(map, configuration, file: "run.toml"))
        #expect(mainPathObjects() == ["school-1"], "no fix since the call: the horizon was rebuilt from the last one")
        // The next ticks send it: a PROFILE SHORT 18 with the user_defined code (14).
        let frames = (1...20).flatMap { core.pipeline.tick(at: fixes.last!.time + Double($0) * 0.1) }
        #expect(
            frames.contains {
                guard case .profileShort(let profile) = $0.message else { return false }
                return profile.profileType.rawValue == 18 && profile.value0 == 14
            })

        // `adasis objects remove` changed the store; SIGHUP on the same map reads it again.
        try CustomObjectStore(path: desk.storePath, create: false).remove(id: "school-1")
        let effects = core.reload(
            configuration, newMap: nil,
            customObjects: try RunDaemon.withCustomObjects(map, configuration, file: "run.toml"), gnss: .init())
        #expect(effects.contains(.log(.notice, "configuration run.toml reloaded: new pipeline")))
        #expect(mainPathObjects().isEmpty)
    }
}

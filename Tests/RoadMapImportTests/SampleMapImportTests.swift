import Foundation
import RoadMap
import RoadMapStore
import Testing
@testable import RoadMapImport
import TestSupport

/// The importer on the real sample extract. Expected values come from the OSM data itself, read
/// with osmium-tool (`osmium fileinfo -e`, `osmium getid Data/helsinki.osm.pbf w4247501 -f opl`).
@Suite("import of the Helsinki sample map", .serialized)
struct SampleMapImportTests {
    static let samplePath = Repository.url("Data/helsinki.osm.pbf").path

    /// Imported once per test process.
    static let importedFile: Result<(String, MapMetadata), Error> = Result {
        let output = TemporaryFile.path("helsinki.map")
        let metadata = try MapImport.run(
            input: samplePath, output: output,
            options: RoadGraphOptions(country: try Country(alpha2: "FI")))
        return (output, metadata)
    }

    /// The imported map, opened for this test, and the import's metadata.
    static var imported: Result<(MapFile, MapMetadata), Error> {
        Result {
            let (path, metadata) = try importedFile.get(); return (try MapFile(path: path), metadata)
        }
    }

    static func links(ofWay way: Int64) throws -> [RoadLink] {
        let (map, _) = try imported.get()
        return try map.tileKeys().flatMap { try map.tile($0).links }.filter { $0.wayID == way }
    }

    @Test("reads every object osmium counts")
    func counts() throws {
        let (_, metadata) = try Self.imported.get()
        #expect(metadata.importReport.nodesRead == 24_260)
        #expect(metadata.importReport.waysRead == 5_130)
        #expect(metadata.importReport.relationsRead == 620)
        #expect(metadata.importReport.links > 900)
        #expect(metadata.countries == ["FI"])
        // The newest element timestamp, as `osmium fileinfo -e` reports it (Last: 2019-04-21T09:50:14Z).
        #expect(metadata.sourceTimestamp == 1_555_840_214)
        #expect(metadata.mapVersionYear == 2019 && metadata.mapVersionQuarter == 2)
    }

    @Test("Vilhonkatu (w4247501): one-way secondary, explicit 40 km/h, 2 lanes")
    func explicitLimit() throws {
        let links = try Self.links(ofWay: 4_247_501)
        #expect(!links.isEmpty)
        for link in links {
            #expect(link.highway == .secondary && link.oneway == .forward && link.name == "Vilhonkatu")
            #expect(link.forward.speedLimit == SpeedLimit(value: .kilometresPerHour(40), kind: .explicit))
            #expect(link.forward.lanes == 2)
        }
    }

    @Test("a service road without maxspeed (w8042565) gets Finland's urban default, marked implicit")
    func implicitLimit() throws {
        let link = try #require(try Self.links(ofWay: 8_042_565).first)
        #expect(link.forward.speedLimit == SpeedLimit(value: .kilometresPerHour(50), kind: .implicit))
    }

    @Test("a tunnel (w27193233): service road, tunnel, 10 km/h, one-way")
    func tunnel() throws {
        let links = try Self.links(ofWay: 27_193_233)
        #expect(!links.isEmpty)
        for link in links {
            #expect(link.tunnel == true && link.oneway == .forward)
            #expect(link.forward.speedLimit.kilometresPerHour == 10)
        }
    }

    @Test("turn restriction r30402: only straight on from w372188349 to w34732047 at n4435014140")
    func turnRestriction() throws {
        let (map, _) = try Self.imported.get()
        let via = NodeID(4_435_014_140)
        let restrictions = try map.restrictions(at: via)
        let restriction = try #require(restrictions.first { try map.link($0.from).wayID == 372_188_349 })
        #expect(try map.link(restriction.to).wayID == 34_732_047)
        #expect(restriction.kind == .mandatory)
        let from = try map.link(restriction.from)
        let direction: LinkDirection = from.endNode == via ? .forward : .backward
        let successors = try map.successors(of: DirectedLink(from.id, direction))
        #expect(successors.map(\.link) == [restriction.to])
        #expect(try map.outgoing(from: via).count > successors.count)  // the others exist but are forbidden
    }

    @Test("the speed camera n6138118896 sits on a road within 15 m of its position")
    func camera() throws {
        let (map, _) = try Self.imported.get()
        let position = GeoPoint(latitude: 60.1704925, longitude: 24.9423714)
        let placed = try map.links(near: position, radius: 40).flatMap { link in
            link.features.compactMap { feature -> GeoPoint? in
                guard case .safetyCamera = feature.kind else { return nil }
                return link.geometry.point(atOffset: feature.offset)?.point
            }
        }
        #expect(placed.contains { $0.distance(to: position) < 15 })
    }

    @Test("Arkadiankatu (w28920739) lost its node outside the extract and keeps the present run")
    func clippedWay() throws {
        let links = try Self.links(ofWay: 28_920_739)
        #expect(links.count == 1)
        #expect(links.first?.startNode == NodeID(60_069_401) && links.first?.endNode == NodeID(257_751_133))
        let (_, metadata) = try Self.imported.get()
        #expect(metadata.importReport.clippedWays > 0)
    }

    @Test("a truncated extract fails naming the blob and leaves no map file")
    func truncatedExtract() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.samplePath))
        let input = TemporaryFile.path("truncated.osm.pbf")
        let output = TemporaryFile.path("truncated.map")
        defer { unlink(input) }
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: input))
        #expect {
            try MapImport.run(
                input: input, output: output, options: RoadGraphOptions(country: try Country(alpha2: "FI")))
        } throws: { error in "\(error)".contains("blob") }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("the map navigates: every legal successor starts where its predecessor ends")
    func navigation() throws {
        let (map, _) = try Self.imported.get()
        for key in try map.tileKeys() {
            for link in try map.tile(key).links {
                for direction in [LinkDirection.forward, .backward] where link.oneway.allows(direction) {
                    let node = link.exitNode(direction)
                    for next in try map.successors(of: DirectedLink(link.id, direction)) {
                        #expect(try map.link(next.link).entryNode(next.direction) == node)
                    }
                }
            }
        }
    }
}

import Foundation
import RoadMap
import RoadMapStore
import Testing
@testable import RoadMapImport

/// Two countries side by side (FI west, EE east of longitude 24.95), each a square drawn by one
/// closed way (FI) or by four ways (EE, joined into a ring); a region inside FI; one road in each.
@Suite("country and region from complete admin boundaries")
struct AdminBoundaryTests {
    static func node(_ id: Int64, _ lat: Double, _ lon: Double) -> OSMElement {
        .node(OSMNode(id: id, latitude: lat, longitude: lon))
    }

    static func elements(dropEastWay: Bool = false) -> [OSMElement] {
        var result: [OSMElement] = [
            node(1, 60.10, 24.90), node(2, 60.10, 24.95), node(3, 60.20, 24.95), node(4, 60.20, 24.90),
            node(5, 60.10, 25.00), node(6, 60.20, 25.00),
            node(7, 60.12, 24.91), node(8, 60.12, 24.94), node(9, 60.18, 24.94), node(10, 60.18, 24.91),
            // roads
            node(20, 60.15, 24.92), node(21, 60.15, 24.93), node(22, 60.15, 24.97), node(23, 60.15, 24.98),
            .way(OSMWay(id: 100, nodeIDs: [1, 2, 3, 4, 1], tags: [:])),
            .way(OSMWay(id: 101, nodeIDs: [2, 5], tags: [:])), .way(OSMWay(id: 102, nodeIDs: [5, 6], tags: [:])),
            .way(OSMWay(id: 104, nodeIDs: [3, 2], tags: [:])),
            .way(OSMWay(id: 105, nodeIDs: [7, 8, 9, 10, 7], tags: [:])),
            .way(OSMWay(id: 200, nodeIDs: [20, 21], tags: ["highway": "residential"])),
            .way(OSMWay(id: 201, nodeIDs: [22, 23], tags: ["highway": "residential"])),
            .relation(
                OSMRelation(
                    id: 1, members: [.init(type: .way, id: 100, role: "outer")],
                    tags: ["type": "boundary", "boundary": "administrative", "admin_level": "2", "ISO3166-1": "FI"])),
            .relation(
                OSMRelation(
                    id: 2, members: [101, 102, 103, 104].map { .init(type: .way, id: $0, role: "outer") },
                    tags: [
                        "type": "boundary", "boundary": "administrative", "admin_level": "2", "ISO3166-1:alpha2": "EE",
                    ])),
            .relation(
                OSMRelation(
                    id: 3, members: [.init(type: .way, id: 105, role: "outer")],
                    tags: ["type": "boundary", "boundary": "administrative", "admin_level": "4", "ISO3166-2": "FI-18"])),
        ]
        if !dropEastWay { result.append(.way(OSMWay(id: 103, nodeIDs: [6, 3], tags: [:]))) }
        return result
    }

    static func build(_ elements: [OSMElement], country: Country?) throws -> RoadGraph {
        var builder = RoadGraphBuilder(
            options: RoadGraphOptions(country: country), legalDefaults: try LegalDefaultSpeeds.bundled())
        builder.prepare(elements)
        if builder.needsBoundaryWays { builder.prepareBoundaryWays(elements) }
        builder.add(elements)
        return builder.build()
    }

    @Test("each road gets the country (and region) whose boundary contains it; legal defaults follow the country")
    func twoCountries() throws {
        let graph = try Self.build(Self.elements(), country: nil)
        let west = try #require(graph.links.first { $0.wayID == 200 })
        let east = try #require(graph.links.first { $0.wayID == 201 })
        #expect(west.countryCode == 246 && east.countryCode == 233)
        #expect(graph.countries == ["EE", "FI"] && graph.regions == ["FI-18"])
        #expect(west.regionCode == 1 && east.regionCode == 0)
        #expect(graph.report.adminBoundariesUsed == 3 && graph.report.incompleteAdminBoundaries == 0)
        #expect(graph.report.linksWithoutCountry == 0)
        #expect(west.forward.speedLimit.kind == .implicit && east.forward.speedLimit.kind == .implicit)
        let counts = MapImport.linkCounts(graph)
        #expect(counts.countries == [1, 1] && counts.regions == [1])
    }

    @Test("a boundary missing a way is skipped and counted; --country covers the rest")
    func incompleteBoundary() throws {
        let graph = try Self.build(Self.elements(dropEastWay: true), country: nil)
        #expect(graph.report.incompleteAdminBoundaries == 1)
        #expect(graph.links.first { $0.wayID == 201 }?.countryCode == 0)
        #expect(graph.report.linksWithoutCountry == 1)
        let fallback = try Self.build(Self.elements(dropEastWay: true), country: try Country(alpha2: "EE"))
        #expect(fallback.links.first { $0.wayID == 201 }?.countryCode == 233)
        #expect(fallback.links.first { $0.wayID == 200 }?.countryCode == 246)  // boundaries still win where complete
    }

    @Test(
        "the sample extract has no complete country boundary: import without --country fails clearly, leaving nothing")
    func sampleNeedsCountry() throws {
        let output = TemporaryFile.path("no-country.map")
        #expect {
            try MapImport.run(
                input: SampleMapImportTests.samplePath, output: output, options: RoadGraphOptions(country: nil))
        } throws: { "\($0)".contains("pass --country") }
        #expect(!FileManager.default.fileExists(atPath: output))
        let metadata = try MapImport.run(
            input: SampleMapImportTests.samplePath, output: output,
            options: RoadGraphOptions(country: try Country(alpha2: "FI")))
        #expect(metadata.countries == ["FI"] && metadata.countryLinkCounts == [metadata.importReport.links])
        #expect(metadata.regions == nil && metadata.regionLinkCounts == nil)
        #expect(
            metadata.importReport.incompleteAdminBoundaries == 2 && metadata.importReport.linksWithoutCountry == nil)
        #expect(try MapFile(path: output).metadata == metadata)
        try? FileManager.default.removeItem(atPath: output)
    }

    @Test("metadata written before link counts and elevation counts still decodes")
    func oldMetadata() throws {
        let json =
            #"{"formatVersion":1,"sourceFile":"old.osm.pbf","countries":["FI"],"boundingBox":[],"#
            + #""importReport":{"nodesRead":1,"waysRead":2,"relationsRead":3,"roadWays":0,"clippedWays":0,"droppedNodeReferences":0,"#
            + #""waysWithoutGeometry":0,"malformedTagValues":0,"links":0,"totalLength":0,"turnRestrictions":0,"unusableTurnRestrictions":0,"#
            + #""safetyCameras":0,"unplacedSafetyCameras":0,"trafficSignals":0,"dualCarriagewayLinks":0,"linksWithTerrainSlope":5}}"#
        let metadata = try JSONDecoder().decode(MapMetadata.self, from: Data(json.utf8))
        #expect(metadata.countries == ["FI"] && metadata.countryLinkCounts == nil && metadata.regions == nil)
        #expect(metadata.importReport.relationsRead == 3 && metadata.importReport.linksWithElevationSlope == nil)
    }
}

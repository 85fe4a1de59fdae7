import Foundation
import RoadMap
import RoadMapStore
import Testing
@testable import RoadMapImport

/// Encodes OSM elements as a PBF file: one blob per element kind (nodes, then ways, then
/// relations, as real files are sorted), plain `Node` messages, granularity 100 nanodegrees.
enum ElementPBF {
    static func file(_ elements: [OSMElement]) -> [UInt8] {
        var nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []
        for element in elements {
            switch element {
            case .node(let node): nodes.append(node)
            case .way(let way): ways.append(way)
            case .relation(let relation): relations.append(relation)
            }
        }
        var result = SyntheticPBF.frame(type: "OSMHeader", blob: SyntheticPBF.rawBlob(SyntheticPBF.headerBlock()))
        for block in [block(nodes: nodes), block(ways: ways), block(relations: relations)] {
            result += SyntheticPBF.frame(type: "OSMData", blob: SyntheticPBF.rawBlob(block))
        }
        return result
    }

    /// A string table builder: index 0 is the empty string.
    struct Strings {
        var list = [""]
        mutating func index(_ string: String) -> UInt64 {
            if let index = list.firstIndex(of: string) { return UInt64(index) }
            list.append(string)
            return UInt64(list.count - 1)
        }
    }

    static func tags(_ tags: [String: String], _ strings: inout Strings, into writer: inout ProtobufTestWriter) {
        let sorted = tags.sorted { $0.key < $1.key }
        SyntheticPBF.packed(2, sorted.map { strings.index($0.key) }, into: &writer)
        SyntheticPBF.packed(3, sorted.map { strings.index($0.value) }, into: &writer)
    }

    static func deltas(_ values: [Int64]) -> [Int64] { zip(values, [0] + values.dropLast()).map { $0 - $1 } }

    static func block(nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []) -> [UInt8] {
        var strings = Strings()
        var group = ProtobufTestWriter()
        for node in nodes {
            var message = ProtobufTestWriter()
            message.varintField(1, ProtobufTestWriter.zigzag(node.id))
            tags(node.tags, &strings, into: &message)
            message.varintField(8, ProtobufTestWriter.zigzag(Int64((node.latitude * 1e7).rounded())))
            message.varintField(9, ProtobufTestWriter.zigzag(Int64((node.longitude * 1e7).rounded())))
            group.bytesField(1, message.bytes)
        }
        for way in ways {
            var message = ProtobufTestWriter()
            message.varintField(1, UInt64(way.id))
            tags(way.tags, &strings, into: &message)
            SyntheticPBF.packedSigned(8, deltas(way.nodeIDs), into: &message)
            group.bytesField(3, message.bytes)
        }
        for relation in relations {
            var message = ProtobufTestWriter()
            message.varintField(1, UInt64(relation.id))
            tags(relation.tags, &strings, into: &message)
            SyntheticPBF.packed(8, relation.members.map { strings.index($0.role) }, into: &message)
            SyntheticPBF.packedSigned(9, deltas(relation.members.map(\.id)), into: &message)
            SyntheticPBF.packed(10, relation.members.map { UInt64($0.type.rawValue) }, into: &message)
            group.bytesField(4, message.bytes)
        }
        var table = ProtobufTestWriter()
        strings.list.forEach { table.stringField(1, $0) }
        var block = ProtobufTestWriter()
        block.bytesField(1, table.bytes)
        block.bytesField(2, group.bytes)
        return block.bytes
    }
}

/// The whole import from a PBF whose relations come after their ways: countries and regions per
/// link in the map file, counts in the metadata.
@Suite("admin boundaries through the PBF import")
struct AdminBoundaryImportTests {
    static func write(_ elements: [OSMElement], _ name: String) throws -> String {
        let path = TemporaryFile.path(name)
        try Data(ElementPBF.file(elements)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("two countries side by side and a region: each link placed, metadata lists them with link counts")
    func importTwoCountries() throws {
        let input = try Self.write(AdminBoundaryTests.elements(), "two-countries.osm.pbf")
        let output = TemporaryFile.path("two-countries.map")
        let metadata = try MapImport.run(input: input, output: output, options: RoadGraphOptions(country: nil))
        #expect(metadata.countries == ["EE", "FI"] && metadata.countryLinkCounts == [1, 1])
        #expect(metadata.regions == ["FI-18"] && metadata.regionLinkCounts == [1])
        #expect(metadata.importReport.adminBoundariesUsed == 3 && metadata.importReport.incompleteAdminBoundaries == 0)
        #expect(metadata.importReport.linksWithoutCountry == 0)
        let map = try MapFile(path: output)
        var placed: [Int64: (UInt16, UInt16)] = [:]
        for key in try map.tileKeys() {
            for link in try map.tile(key).links { placed[link.wayID] = (link.countryCode, link.regionCode) }
        }
        #expect(placed[200]?.0 == 246 && placed[200]?.1 == 1)
        #expect(placed[201]?.0 == 233 && placed[201]?.1 == 0)
    }

    @Test("a boundary cut by the extract: the import without --country fails naming the links; with it, it succeeds")
    func importIncomplete() throws {
        let input = try Self.write(AdminBoundaryTests.elements(dropEastWay: true), "cut-boundary.osm.pbf")
        let output = TemporaryFile.path("cut-boundary.map")
        #expect { try MapImport.run(input: input, output: output, options: RoadGraphOptions(country: nil)) } throws: {
            ($0 as? MapImportError) == .countryUnknown(links: 1, boundaries: 2) && "\($0)".contains("1 link lies")
                && "\($0)".contains("--country")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        let metadata = try MapImport.run(
            input: input, output: output, options: RoadGraphOptions(country: try Country(alpha2: "EE")))
        #expect(metadata.countries == ["EE", "FI"] && metadata.countryLinkCounts == [1, 1])
        #expect(metadata.importReport.incompleteAdminBoundaries == 1)
    }
}

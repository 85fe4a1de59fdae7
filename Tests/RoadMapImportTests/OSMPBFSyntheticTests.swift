import RoadMap
import Testing
@testable import RoadMapImport

/// Builds small PBF files blob by blob (raw, uncompressed blobs) for tests.
enum SyntheticPBF {
    /// `[length][BlobHeader{type, datasize}][blob]`.
    static func frame(type: String, blob: [UInt8]) -> [UInt8] {
        var header = ProtobufTestWriter()
        header.stringField(1, type)
        header.varintField(3, UInt64(blob.count))
        let length = UInt32(header.bytes.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + header.bytes + blob
    }

    /// A `Blob` storing `block` uncompressed.
    static func rawBlob(_ block: [UInt8]) -> [UInt8] {
        var blob = ProtobufTestWriter()
        blob.bytesField(1, block)
        blob.varintField(2, UInt64(block.count))
        return blob.bytes
    }

    /// A `HeaderBlock` with the given required features and a bounding box.
    static func headerBlock(features: [String] = ["OsmSchema-V0.6", "DenseNodes"]) -> [UInt8] {
        var bbox = ProtobufTestWriter()
        for (field, nanodegrees) in [
            (1, 24_000_000_000), (2, 25_000_000_000), (3, 61_000_000_000), (4, 60_000_000_000),
        ] as [(UInt64, Int64)] {
            bbox.varintField(field, ProtobufTestWriter.zigzag(nanodegrees))
        }
        var header = ProtobufTestWriter()
        header.bytesField(1, bbox.bytes)
        features.forEach { header.stringField(4, $0) }
        header.stringField(16, "adasis tests")
        return header.bytes
    }

    /// A packed repeated field of zigzag-encoded values.
    static func packedSigned(_ field: UInt64, _ values: [Int64], into writer: inout ProtobufTestWriter) {
        var packed = ProtobufTestWriter()
        values.forEach { packed.varint(ProtobufTestWriter.zigzag($0)) }
        writer.bytesField(field, packed.bytes)
    }

    /// A packed repeated field of plain varints.
    static func packed(_ field: UInt64, _ values: [UInt64], into writer: inout ProtobufTestWriter) {
        var packed = ProtobufTestWriter()
        values.forEach { packed.varint($0) }
        writer.bytesField(field, packed.bytes)
    }

    /// A `PrimitiveBlock` with granularity 1000 and offsets, holding one plain `Node`, two dense nodes,
    /// one `Way` and one `Relation`.
    static func dataBlock() -> [UInt8] {
        var strings = ProtobufTestWriter()
        ["", "highway", "crossing", "name", "Testikatu", "stop", "from"].forEach { strings.stringField(1, $0) }
        var node = ProtobufTestWriter()
        node.varintField(1, ProtobufTestWriter.zigzag(-5))
        packed(2, [1], into: &node)
        packed(3, [2], into: &node)
        node.varintField(8, ProtobufTestWriter.zigzag(55_123_456))
        node.varintField(9, ProtobufTestWriter.zigzag(27_654_321))
        var dense = ProtobufTestWriter()
        packedSigned(1, [100, 1], into: &dense)
        packedSigned(8, [55_000_000, -1_000], into: &dense)
        packedSigned(9, [27_000_000, 2_000], into: &dense)
        packed(10, [0, 1, 5, 0], into: &dense)
        var way = ProtobufTestWriter()
        way.varintField(1, 7)
        packed(2, [3, 1], into: &way)
        packed(3, [4, 5], into: &way)
        packedSigned(8, [-5, 105, 1], into: &way)
        var relation = ProtobufTestWriter()
        relation.varintField(1, 9)
        packed(8, [6, 0], into: &relation)
        packedSigned(9, [7, -107], into: &relation)
        packed(10, [1, 0], into: &relation)
        var nodesGroup = ProtobufTestWriter(), denseGroup = ProtobufTestWriter()
        var waysGroup = ProtobufTestWriter(), relationsGroup = ProtobufTestWriter()
        nodesGroup.bytesField(1, node.bytes)
        denseGroup.bytesField(2, dense.bytes)
        waysGroup.bytesField(3, way.bytes)
        relationsGroup.bytesField(4, relation.bytes)
        var block = ProtobufTestWriter()
        block.bytesField(1, strings.bytes)
        [nodesGroup, denseGroup, waysGroup, relationsGroup].forEach { block.bytesField(2, $0.bytes) }
        block.varintField(17, 1_000)
        block.varintField(19, 5_000_000_000)
        block.varintField(20, UInt64(bitPattern: -3_000_000_000))
        return block.bytes
    }

    /// A whole file: header blob, one data blob, and an unknown blob type that readers must skip.
    static func file() -> [UInt8] {
        frame(type: "OSMHeader", blob: rawBlob(headerBlock()))
            + frame(type: "OSMData", blob: rawBlob(dataBlock()))
            + frame(type: "ExampleIndex", blob: rawBlob([1, 2, 3]))
    }
}

@Suite("OSM PBF synthetic file (plain nodes, granularity, offsets, raw blobs)")
struct OSMPBFSyntheticTests {
    // The bytes of `SyntheticPBF.file()` were written to /tmp/synthetic.osm.pbf and read with
    // `osmium cat /tmp/synthetic.osm.pbf -f opl`:
    //   n-5 … Thighway=crossing x24.654321 y60.123456
    //   n100 … T x24 y60
    //   n101 … Thighway=stop x24.002 y59.999
    //   w7 … Tname=Testikatu,highway=stop Nn-5,n100,n101
    //   r9 … T Mw7@from,n-100@
    // (osmium prints these, then exits 1 on the trailing `ExampleIndex` blob: libosmium rejects unknown
    // blob types, while the format specification says readers skip them, as this reader does.)
    @Test("a plain node, dense nodes, a way and a relation decode as osmium reads them")
    func elements() throws {
        var reader = try OSMPBFReader(data: SyntheticPBF.file())
        #expect(reader.header.writingProgram == "adasis tests")
        #expect(
            reader.header.boundingBox.map { [$0.minLatitude, $0.minLongitude, $0.maxLatitude, $0.maxLongitude] }
                == [60, 24, 61, 25])
        let elements = try #require(try reader.nextBlock())
        #expect(try reader.nextBlock() == nil)
        #expect(reader.bytesRead == reader.totalBytes)
        try #require(elements.count == 5)
        guard case .node(let plain) = elements[0], case .node(let first) = elements[1],
            case .node(let second) = elements[2],
            case .way(let way) = elements[3], case .relation(let relation) = elements[4]
        else {
            Issue.record("unexpected element kinds: \(elements)")
            return
        }
        #expect(plain.id == -5 && plain.tags == ["highway": "crossing"])
        #expect(abs(plain.latitude - 60.123456) < 1e-9 && abs(plain.longitude - 24.654321) < 1e-9)
        #expect(
            first.id == 100 && first.tags.isEmpty && abs(first.latitude - 60) < 1e-9 && abs(first.longitude - 24) < 1e-9
        )
        #expect(second.id == 101 && second.tags == ["highway": "stop"])
        #expect(abs(second.latitude - 59.999) < 1e-9 && abs(second.longitude - 24.002) < 1e-9)
        #expect(way == OSMWay(id: 7, nodeIDs: [-5, 100, 101], tags: ["name": "Testikatu", "highway": "stop"]))
        #expect(
            relation
                == OSMRelation(
                    id: 9,
                    members: [
                        .init(type: .way, id: 7, role: "from"),
                        .init(type: .node, id: -100, role: ""),
                    ]))
    }
}

import RoadMap
import Testing
@testable import RoadMapImport

/// Expected values below were produced by osmium-tool (an independent PBF implementation, libosmium).
@Suite("OSM PBF elements of the Helsinki sample")
struct OSMPBFElementTests {
    /// All elements of the sample, read once through the public API and shared by the tests.
    static let sampleRead = Result { try readSample() }

    static func allElements() throws -> (elements: [OSMElement], blocks: Int, bytesRead: Int, totalBytes: Int) {
        try sampleRead.get()
    }

    private static func readSample() throws -> (elements: [OSMElement], blocks: Int, bytesRead: Int, totalBytes: Int) {
        var reader = try OSMPBFReader(path: OSMPBFSample.path)
        var elements: [OSMElement] = []
        var blocks = 0
        while let block = try reader.nextBlock() {
            elements += block
            blocks += 1
        }
        return (elements, blocks, reader.bytesRead, reader.totalBytes)
    }

    // `osmium fileinfo -e Data/helsinki.osm.pbf`: Number of nodes: 24260, ways: 5130, relations: 620;
    // the file has 5 blobs (1 OSMHeader + 4 OSMData).
    @Test("counts of nodes, ways and relations equal osmium's, and every byte is consumed")
    func counts() throws {
        let read = try Self.allElements()
        var nodes = 0, ways = 0, relations = 0
        for element in read.elements {
            switch element {
            case .node: nodes += 1
            case .way: ways += 1
            case .relation: relations += 1
            }
        }
        #expect(nodes == 24_260)
        #expect(ways == 5_130)
        #expect(relations == 620)
        #expect(read.blocks == 4)
        #expect(read.bytesRead == read.totalBytes)
    }

    // `osmium cat Data/helsinki.osm.pbf -f opl`, summing the T (tags), N (way nodes) and M (members) lists:
    // node tags 28367, way tags 25114, relation tags 4594, way node references 38026, relation members 84049.
    @Test("total tags, way node references and relation members equal osmium's")
    func totals() throws {
        var nodeTags = 0, wayTags = 0, relationTags = 0, references = 0, members = 0
        for element in try Self.allElements().elements {
            switch element {
            case .node(let node): nodeTags += node.tags.count
            case .way(let way):
                wayTags += way.tags.count
                references += way.nodeIDs.count
            case .relation(let relation):
                relationTags += relation.tags.count
                members += relation.members.count
            }
        }
        #expect([nodeTags, wayTags, relationTags] == [28_367, 25_114, 4_594])
        #expect(references == 38_026)
        #expect(members == 84_049)
    }

    // `osmium cat Data/helsinki.osm.pbf -t node -f opl`, summing over all nodes the id, round(x * 1e7) and
    // round(y * 1e7): ids 61734948135927, longitudes 6051479098926, latitudes 14597448200208.
    @Test("every node's coordinates agree with osmium's to 1e-7° (sums of ids and fixed-point coordinates)")
    func allCoordinates() throws {
        var ids: Int64 = 0, longitudes: Int64 = 0, latitudes: Int64 = 0
        for case .node(let node) in try Self.allElements().elements {
            ids += node.id
            longitudes += Int64((node.longitude * 1e7).rounded())
            latitudes += Int64((node.latitude * 1e7).rounded())
        }
        #expect(ids == 61_734_948_135_927)
        #expect(longitudes == 6_051_479_098_926)
        #expect(latitudes == 14_597_448_200_208)
    }

    // `osmium getid Data/helsinki.osm.pbf w4250285 -f opl`:
    // w4250285 v16 … Tlit=yes,name=Vironkatu,highway=residential,name:fi=Vironkatu,name:sv=Estnäsgatan,surface=paved,
    //   maxspeed=30,start_date=before%20%1815,snowplowing=yes Nn1375809935,n336197271,…,n25435216
    @Test("way 4250285 has osmium's node list and tags")
    func way() throws {
        let ways = try Self.allElements().elements.compactMap { element -> OSMWay? in
            if case .way(let way) = element, way.id == 4_250_285 { return way }
            return nil
        }
        let way = try #require(ways.first)
        #expect(ways.count == 1)
        #expect(
            way.nodeIDs == [
                1_375_809_935, 336_197_271, 355_149_811, 1_758_939_016, 1_640_356_277, 1_758_939_017,
                355_149_791, 3_140_591_517, 340_377_998, 1_371_708_576, 340_377_999, 3_140_591_518,
                340_375_077, 25_435_216,
            ])
        #expect(
            way.tags == [
                "lit": "yes", "name": "Vironkatu", "highway": "residential", "name:fi": "Vironkatu",
                "name:sv": "Estnäsgatan", "surface": "paved", "maxspeed": "30",
                "start_date": "before 1815", "snowplowing": "yes",
            ])
    }

    // `osmium getid Data/helsinki.osm.pbf n25291565 n6394671610 -f opl`:
    // n25291565 … Thighway=traffic_signals x24.9393442 y60.1651349
    // n6394671610 … Tamenity=conference_centre,name=Epicenter%20%Helsinki x24.9457495 y60.1699754
    @Test("nodes 25291565 and 6394671610 have osmium's coordinates (within 1e-7°) and tags")
    func nodes() throws {
        var found: [Int64: OSMNode] = [:]
        for case .node(let node) in try Self.allElements().elements where [25_291_565, 6_394_671_610].contains(node.id)
        {
            found[node.id] = node
        }
        let signals = try #require(found[25_291_565])
        #expect(abs(signals.latitude - 60.1651349) < 1e-7)
        #expect(abs(signals.longitude - 24.9393442) < 1e-7)
        #expect(signals.tags == ["highway": "traffic_signals"])
        let centre = try #require(found[6_394_671_610])
        #expect(abs(centre.latitude - 60.1699754) < 1e-7)
        #expect(abs(centre.longitude - 24.9457495) < 1e-7)
        #expect(centre.tags == ["amenity": "conference_centre", "name": "Epicenter Helsinki"])
    }

    // `osmium getid Data/helsinki.osm.pbf r9833 -f opl`:
    // r9833 … Ttype=restriction,except=taxi,restriction=only_straight_on,traffic_sign=no_u_turn
    //   Mn256669737@via,w26428941@from,w30260137@to
    @Test("relation 9833 has osmium's members with types and roles, and its tags")
    func relation() throws {
        var relations: [OSMRelation] = []
        for case .relation(let relation) in try Self.allElements().elements where relation.id == 9_833 {
            relations.append(relation)
        }
        let relation = try #require(relations.first)
        #expect(relations.count == 1)
        #expect(
            relation.members == [
                .init(type: .node, id: 256_669_737, role: "via"),
                .init(type: .way, id: 26_428_941, role: "from"),
                .init(type: .way, id: 30_260_137, role: "to"),
            ])
        #expect(
            relation.tags == [
                "type": "restriction", "except": "taxi", "restriction": "only_straight_on",
                "traffic_sign": "no_u_turn",
            ])
    }

    // `osmium fileinfo -e`: Objects ordered (by type and id): yes; smallest node 25291537, largest way 684443849.
    @Test("elements come in file order: nodes, then ways, then relations, ids ascending")
    func order() throws {
        let elements = try Self.allElements().elements
        func rank(_ element: OSMElement) -> (Int, Int64) {
            switch element {
            case .node(let node): return (0, node.id)
            case .way(let way): return (1, way.id)
            case .relation(let relation): return (2, relation.id)
            }
        }
        let ranks = elements.map(rank)
        #expect(zip(ranks, ranks.dropFirst()).allSatisfy { $0 < $1 })
        #expect(ranks.first.map { $0 == (0, 25_291_537) } == true)
        #expect(ranks.last(where: { $0.0 == 1 }).map { $0 == (1, 684_443_849) } == true)
    }
}

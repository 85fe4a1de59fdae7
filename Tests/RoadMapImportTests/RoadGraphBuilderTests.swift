import RoadMap
import RoadMapStore
import Testing
@testable import RoadMapImport

/// Hand-built OSM data: a main street (way 1, west→east, two-way, 50 km/h) crossed at node 12 by
/// a one-way side street (way 2, north→south), a clipped way (way 3, a node missing), traffic
/// signals at the crossing, a camera beside the main street, a no-left-turn restriction.
@Suite("road graph from OSM elements")
struct RoadGraphBuilderTests {
    static func point(_ id: Int64, _ lat: Double, _ lon: Double, _ tags: [String: String] = [:]) -> OSMElement {
        .node(OSMNode(id: id, latitude: lat, longitude: lon, tags: tags))
    }

    static var elements: [OSMElement] {
        [
            point(10, 60.1700, 24.9400), point(11, 60.1700, 24.9410),
            point(12, 60.1700, 24.9420, ["highway": "traffic_signals"]), point(13, 60.1700, 24.9430),
            point(20, 60.1710, 24.9420), point(21, 60.1690, 24.9420),
            point(30, 60.1690, 24.9430), point(31, 60.1680, 24.9430),
            point(40, 60.17005, 24.9425, ["highway": "speed_camera", "maxspeed": "50", "direction": "90"]),
            .way(
                OSMWay(
                    id: 1, nodeIDs: [10, 11, 12, 13], tags: ["highway": "secondary", "maxspeed": "50", "name": "Main"])),
            .way(
                OSMWay(
                    id: 2, nodeIDs: [20, 12, 21], tags: ["highway": "residential", "oneway": "yes", "tunnel": "yes"])),
            .way(OSMWay(id: 3, nodeIDs: [13, 30, 99, 31], tags: ["highway": "service", "lanes": "lots"])),
            .way(OSMWay(id: 4, nodeIDs: [10, 20], tags: ["highway": "footway"])),
            .relation(
                OSMRelation(
                    id: 7,
                    members: [
                        .init(type: .way, id: 2, role: "from"), .init(type: .node, id: 12, role: "via"),
                        .init(type: .way, id: 1, role: "to"),
                    ],
                    tags: ["type": "restriction", "restriction": "no_left_turn"])),
        ]
    }

    static func build() throws -> RoadGraph {
        var builder = RoadGraphBuilder(
            options: RoadGraphOptions(country: try Country(alpha2: "FI")),
            legalDefaults: try LegalDefaultSpeeds.bundled())
        builder.add(elements)
        return builder.build()
    }

    @Test("roads are split at junctions into links; footways are not roads")
    func splitting() throws {
        let graph = try Self.build()
        let ways = graph.links.map(\.wayID)
        #expect(ways.filter { $0 == 1 }.count == 2)  // 10-11-12 and 12-13
        #expect(ways.filter { $0 == 2 }.count == 2)  // 20-12 and 12-21
        #expect(ways.filter { $0 == 3 }.count == 1)
        #expect(!ways.contains(4))
        #expect(graph.report.links == 5)
        let first = try #require(graph.links.first { $0.wayID == 1 && $0.startNode == NodeID(10) })
        #expect(first.endNode == NodeID(12))
        #expect(abs(first.length - 111.0) < 1.5)  // 0.002° of longitude at 60.17°N
    }

    @Test("a way with a missing node keeps its longest present run and is counted")
    func clipping() throws {
        let graph = try Self.build()
        let clipped = try #require(graph.links.first { $0.wayID == 3 })
        #expect(clipped.startNode == NodeID(13) && clipped.endNode == NodeID(30))
        #expect(graph.report.clippedWays == 1)
        #expect(graph.report.droppedNodeReferences == 2)
        #expect(graph.report.malformedTagValues == 1)  // lanes=lots
    }

    @Test("explicit and implicit speed limits, oneway, tunnel, country")
    func attributes() throws {
        let graph = try Self.build()
        let main = try #require(graph.links.first { $0.wayID == 1 })
        #expect(main.forward.speedLimit == SpeedLimit(value: .kilometresPerHour(50), kind: .explicit))
        let side = try #require(graph.links.first { $0.wayID == 2 })
        #expect(side.oneway == .forward)
        #expect(side.tunnel == true)
        // FI urban default
        #expect(side.forward.speedLimit == SpeedLimit(value: .kilometresPerHour(50), kind: .implicit))
        #expect(side.countryCode == 246)
    }

    @Test("traffic signals at a junction sit at the end of every arriving link")
    func signals() throws {
        let graph = try Self.build()
        let arriving = graph.links.filter { $0.features.contains { $0.kind == .trafficSignals } }
        // Main street west part (forward), main street east part (backward), side street north part (forward).
        #expect(arriving.count == 3)
        #expect(graph.report.trafficSignals == 1)
    }

    @Test("a camera beside the road is snapped to it with its direction")
    func camera() throws {
        let graph = try Self.build()
        let cameras = graph.links.flatMap { link in
            link.features.filter { if case .safetyCamera = $0.kind { true } else { false } }.map { (link, $0) }
        }
        #expect(cameras.count == 1)
        let (link, camera) = try #require(cameras.first)
        #expect(link.wayID == 1 && link.startNode == NodeID(12))
        #expect(camera.kind == .safetyCamera(.fixedSpeed, speedLimit: 50))
        #expect(camera.direction == .forward)  // 90° = eastbound = the way's drawing direction
        #expect(abs(camera.offset - 27.7) < 2)
    }

    @Test("turn restriction resolved onto the links at the via node")
    func restriction() throws {
        let graph = try Self.build()
        let restriction = try #require(graph.restrictions.first)
        #expect(graph.restrictions.count == 1)
        let from = graph.links.first { $0.id == restriction.from }
        #expect(from?.wayID == 2 && from?.endNode == NodeID(12))
        #expect(restriction.kind == .prohibitory)
        let network = InMemoryRoadNetwork(links: graph.links, restrictions: graph.restrictions)
        let successors = try network.successors(of: DirectedLink(restriction.from, .forward))
        #expect(!successors.contains { $0.link == restriction.to })
        #expect(successors.count == 2)  // straight on (way 2 south) and right (main street west)
    }

    @Test("after prepare, only the nodes roads, cameras and signals need are kept; the graph is the same")
    func preparedBuildKeepsOnlyNeededNodes() throws {
        var builder = RoadGraphBuilder(
            options: RoadGraphOptions(country: try Country(alpha2: "FI")),
            legalDefaults: try LegalDefaultSpeeds.bundled())
        let extra: [OSMElement] = [
            Self.point(500, 60.2, 24.9), .way(OSMWay(id: 50, nodeIDs: [500, 10], tags: ["building": "yes"])),
        ]
        builder.prepare(Self.elements + extra)
        builder.add(Self.elements + extra)
        #expect(builder.nodes[500] == nil && builder.nodes[10] != nil && builder.nodes[40] != nil)
        let prepared = builder.build()
        #expect(prepared.links == (try Self.build()).links)
        #expect(prepared.report.nodesRead == Self.elements.count { if case .node = $0 { true } else { false } } + 1)
    }

    @Test("link identifiers name their home tile and are dense within it")
    func identifiers() throws {
        let graph = try Self.build()
        for link in graph.links { #expect(link.id.tile == TileKey(containing: link.geometry[0])) }
        #expect(Set(graph.links.map(\.id)).count == graph.links.count)
    }
}

/// An average-speed relation from a node on the main street to a node on the side street becomes
/// one zone over the links between them; toll booths and level crossings on road nodes.
@Suite("road objects from OSM elements")
struct RoadObjectImportTests {
    static func build(_ extra: [OSMElement]) throws -> RoadGraph {
        var builder = RoadGraphBuilder(
            options: RoadGraphOptions(country: try Country(alpha2: "FI")),
            legalDefaults: try LegalDefaultSpeeds.bundled())
        builder.add(RoadGraphBuilderTests.elements + extra)
        return builder.build()
    }

    static func zone(_ id: Int64, from: Int64, to: Int64) -> OSMElement {
        .relation(
            OSMRelation(
                id: id,
                members: [.init(type: .node, id: from, role: "from"), .init(type: .node, id: to, role: "to")],
                tags: ["type": "enforcement", "enforcement": "average_speed", "maxspeed": "40"]))
    }

    @Test("an average-speed zone covers the drive from its from member to its to member")
    func averageSpeedZone() throws {
        // From node 11 (on the main street) east to the crossing 12, then south on the one-way side street to 21.
        let graph = try Self.build([Self.zone(99, from: 11, to: 21)])
        let pieces = graph.links.flatMap { link in
            link.features.compactMap { feature -> (RoadLink, PointFeature, ZonePiece)? in
                if case .zone(let piece) = feature.kind { return (link, feature, piece) }
                return nil
            }
        }
        #expect(graph.report.averageSpeedZones == 1)
        #expect(pieces.count == 2)
        let total = pieces.reduce(0) { $0 + $1.2.length }
        // 0.001° of longitude at 60.17° N (≈ 55.4 m) plus 0.001° of latitude (≈ 111.3 m).
        #expect(abs(total - 166.7) < 1.5, "zone length \(total)")
        let first = try #require(pieces.first { $0.2.isZoneStart })
        #expect(first.0.wayID == 1 && first.1.direction == .forward && first.2.speedLimit == 40)
        let last = try #require(pieces.first { $0.2.isZoneEnd })
        #expect(last.0.wayID == 2 && last.1.direction == .forward && last.1.offset == 0)
        #expect(pieces.allSatisfy { $0.2.zone == 99 && $0.2.type == .averageSpeedZone })
    }

    @Test("a zone against a one-way has no legal drive: kept as a point at its start, counted")
    func unroutableZone() throws {
        let graph = try Self.build([Self.zone(98, from: 21, to: 20)])
        #expect(graph.report.unroutedZones == 1 && graph.report.averageSpeedZones == nil)
        let cameras = graph.links.flatMap(\.features).filter {
            $0.kind == .safetyCamera(.averageSpeedZone, speedLimit: 40)
        }
        #expect(cameras.count == 1)
    }

    @Test("toll booths and level crossings on road nodes; one off the roads is not placed")
    func roadNodes() throws {
        let graph = try Self.build([
            RoadGraphBuilderTests.point(11, 60.1700, 24.9410, ["barrier": "toll_booth"]),
            RoadGraphBuilderTests.point(13, 60.1700, 24.9430, ["railway": "level_crossing"]),
            RoadGraphBuilderTests.point(50, 60.1750, 24.9500, ["railway": "level_crossing"]),
        ])
        let tolls = graph.links.filter { $0.features.contains { $0.kind == .tollBooth } }
        #expect(tolls.count == 1 && tolls[0].wayID == 1)
        let toll = try #require(tolls[0].features.first { $0.kind == .tollBooth })
        #expect(toll.direction == nil && abs(toll.offset - 55.4) < 1)
        // Node 13 joins the main street and the service road: on both, for the direction arriving there.
        let crossings = graph.links.flatMap { link in
            link.features.filter { $0.kind == .railwayCrossing }.map { (link.wayID, $0.direction) }
        }
        #expect(crossings.count == 2)
        #expect(crossings.contains { $0 == (1, .forward) } && crossings.contains { $0 == (3, .backward) })
    }

    @Test("hazard=* ways are hazard stretches in each direction driven; a hazard=* road node is a point")
    func hazards() throws {
        // Way 5 (two-way, hazard=children) north from node 10, split at node 61 where the one-way
        // way 6 leaves; node 63 on way 6 carries hazard=animal_crossing.
        let graph = try Self.build([
            RoadGraphBuilderTests.point(60, 60.1720, 24.9400), RoadGraphBuilderTests.point(61, 60.1730, 24.9400),
            RoadGraphBuilderTests.point(62, 60.1740, 24.9400),
            RoadGraphBuilderTests.point(63, 60.1730, 24.9410, ["hazard": "animal_crossing"]),
            RoadGraphBuilderTests.point(64, 60.1730, 24.9420),
            .way(OSMWay(id: 5, nodeIDs: [10, 60, 61, 62], tags: ["highway": "residential", "hazard": "children"])),
            .way(OSMWay(id: 6, nodeIDs: [61, 63, 64], tags: ["highway": "residential", "oneway": "yes"])),
        ])
        #expect(graph.report.hazards == 3)  // way 5 in each direction, node 63
        var pieces: [(link: RoadLink, feature: PointFeature, piece: ZonePiece)] = []
        for link in graph.links {
            for feature in link.features {
                if case .zone(let piece) = feature.kind, piece.type == .hazard { pieces.append((link, feature, piece)) }
            }
        }
        let stretch = pieces.filter { $0.piece.zone == 5 }
        #expect(stretch.count == 4 && stretch.allSatisfy { $0.link.wayID == 5 && $0.piece.length == $0.link.length })
        for direction in [LinkDirection.forward, .backward] {
            let driven = stretch.filter { $0.feature.direction == direction }
            // Northward the zone starts at node 10 and ends at 62; southward the other way round.
            let startNode = NodeID(direction == .forward ? 10 : 62)
            let endNode = NodeID(direction == .forward ? 62 : 10)
            #expect(driven.filter(\.piece.isZoneStart).map { $0.link.entryNode(direction) } == [startNode])
            #expect(driven.filter(\.piece.isZoneEnd).map { $0.link.exitNode(direction) } == [endNode])
        }
        let point = try #require(pieces.first { $0.piece.zone == -63 })
        #expect(point.link.wayID == 6 && point.piece.length == 0 && point.feature.direction == nil)
        #expect(point.feature.kind.roadObjectType == .hazard && !RoadObjectType.hazard.isSafetyLocation)
        // The kinds: the way's children on every piece, the node's animal crossing.
        #expect(stretch.allSatisfy { $0.piece.hazard == .children } && point.piece.hazard == .animalCrossing)
    }

    @Test("hazard=* values: the table's kinds, turn as curve, the first known of a list, other for the rest")
    func hazardKinds() {
        #expect(HazardKind(osm: "children") == .children && HazardKind(osm: " Animal_Crossing ") == .animalCrossing)
        #expect(HazardKind(osm: "turn") == .curve && HazardKind(osm: "turns") == .curves)
        #expect(HazardKind(osm: "volcano;falling_rocks") == .fallingRocks)
        #expect(HazardKind(osm: "yes") == .other && HazardKind(osm: "other") == .other && HazardKind(osm: "") == .other)
        #expect(Set(HazardKind.allCases.map(\.rawValue)).count == HazardKind.allCases.count)
        #expect(HazardKind.allCases.allSatisfy { HazardKind(osm: $0.osmValue) == $0 })
    }
}

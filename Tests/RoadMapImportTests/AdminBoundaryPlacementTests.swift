import Foundation
import RoadMap
import Testing
@testable import RoadMapImport

/// Placement details: enclaves (inner rings), node members, links of one way on both sides of a
/// border, ring joining, and the banded point-in-polygon test against a brute-force one.
@Suite("admin boundary placement")
struct AdminBoundaryPlacementTests {
    static let node = AdminBoundaryTests.node
    static func boundary(_ id: Int64, _ members: [OSMRelation.Member], level: String = "2", _ code: (String, String))
        -> OSMElement
    {
        .relation(
            OSMRelation(
                id: id, members: members,
                tags: ["type": "boundary", "boundary": "administrative", "admin_level": level, code.0: code.1]))
    }

    /// FI: the square 60.10–60.20 × 24.90–25.00 with a hole 60.14–60.16 × 24.94–24.96, which is an
    /// EE enclave. Roads: one inside the enclave, one beside it, one crossing the enclave's west
    /// edge (split there by a side road), all in the given unknown-area assumption.
    static func enclave(adminCentre: Int64 = 9) -> [OSMElement] {
        [
            node(1, 60.10, 24.90), node(2, 60.10, 25.00), node(3, 60.20, 25.00), node(4, 60.20, 24.90),
            node(5, 60.14, 24.94), node(6, 60.14, 24.96), node(7, 60.16, 24.96), node(8, 60.16, 24.94),
            node(9, 60.17, 24.93),
            node(20, 60.15, 24.945), node(21, 60.15, 24.955), node(22, 60.18, 24.92), node(23, 60.18, 24.93),
            node(30, 60.145, 24.91), node(31, 60.145, 24.94), node(32, 60.145, 24.95), node(33, 60.13, 24.94),
            .way(OSMWay(id: 100, nodeIDs: [1, 2, 3], tags: [:])), .way(OSMWay(id: 101, nodeIDs: [1, 4, 3], tags: [:])),
            .way(OSMWay(id: 102, nodeIDs: [5, 6, 7, 8, 5], tags: [:])),
            .way(OSMWay(id: 200, nodeIDs: [20, 21], tags: ["highway": "tertiary"])),
            .way(OSMWay(id: 201, nodeIDs: [22, 23], tags: ["highway": "tertiary"])),
            .way(OSMWay(id: 202, nodeIDs: [30, 31, 32], tags: ["highway": "tertiary"])),
            .way(OSMWay(id: 203, nodeIDs: [31, 33], tags: ["highway": "tertiary"])),
            boundary(
                1,
                [
                    .init(type: .way, id: 101, role: "outer"), .init(type: .way, id: 100, role: "outer"),
                    .init(type: .way, id: 102, role: "inner"),
                    .init(type: .node, id: adminCentre, role: "admin_centre"),
                ],
                ("ISO3166-1", "FI")),
            boundary(2, [.init(type: .way, id: 102, role: "outer")], ("ISO3166-1:alpha2", "EE")),
        ]
    }

    static func build(_ elements: [OSMElement], country: Country?, area: AreaAssumption = .urban) throws -> RoadGraph {
        var builder = RoadGraphBuilder(
            options: RoadGraphOptions(country: country, unknownArea: area),
            legalDefaults: try LegalDefaultSpeeds.bundled())
        builder.prepare(elements)
        if builder.needsBoundaryWays { builder.prepareBoundaryWays(elements) }
        builder.add(elements)
        return builder.build()
    }

    @Test("an enclave (inner ring of one country, outer of another) belongs to the enclave's country")
    func enclave() throws {
        let graph = try Self.build(Self.enclave(), country: nil)
        #expect(graph.report.adminBoundariesUsed == 2 && graph.report.linksWithoutCountry == 0)
        #expect(graph.links.first { $0.wayID == 200 }?.countryCode == 233)
        #expect(graph.links.first { $0.wayID == 201 }?.countryCode == 246)
        #expect(graph.countries == ["EE", "FI"])
        let counts = MapImport.linkCounts(graph)
        #expect(counts.countries == [2, 3] && counts.regions == [])
    }

    @Test(
        "each link of a way crossing a border takes the country of its own middle, with that country's legal defaults")
    func linkCrossingBorder() throws {
        let graph = try Self.build(Self.enclave(), country: nil, area: .rural)
        let west = try #require(graph.links.first { $0.wayID == 202 && $0.startNode == NodeID(30) })
        let east = try #require(graph.links.first { $0.wayID == 202 && $0.startNode == NodeID(31) })
        #expect(west.countryCode == 246 && east.countryCode == 233)
        let finnish = try Self.build(Self.enclave(), country: try Country(alpha2: "FI"), area: .rural).links.first {
            $0.wayID == 201
        }
        let estonian = try Self.build(
            Array(Self.enclave().dropLast(2)), country: try Country(alpha2: "EE"), area: .rural
        ).links.first { $0.wayID == 201 }
        #expect(west.forward.speedLimit == finnish?.forward.speedLimit)
        #expect(east.forward.speedLimit == estonian?.forward.speedLimit)
        #expect(finnish?.forward.speedLimit != estonian?.forward.speedLimit)
    }

    @Test("a boundary whose admin_centre node is missing is incomplete")
    func missingNodeMember() throws {
        let graph = try Self.build(Self.enclave(adminCentre: 999), country: nil)
        #expect(graph.report.incompleteAdminBoundaries == 1 && graph.report.adminBoundariesUsed == 1)
        #expect(graph.report.linksWithoutCountry == 3)  // only the enclave's link is placed
    }

    @Test("ways join into rings in any order and direction; an open chain is no ring")
    func rings() {
        let rings = AdminBoundaries.closedRings([[3, 4], [1, 2], [7, 8, 9, 7], [4, 1], [3, 2]])
        #expect(rings?.count == 2)
        #expect(rings?.contains([7, 8, 9, 7]) == true)
        #expect(rings?.contains { $0.count == 5 && $0.first == $0.last && Set($0) == [1, 2, 3, 4] } == true)
        #expect(AdminBoundaries.closedRings([[1, 2], [2, 3], [3, 4]]) == nil)
        #expect(AdminBoundaries.closedRings([[1, 2, 1]]) == nil)  // too short to enclose anything
    }

    /// Even-odd over all edges, the slow way.
    static func bruteForce(_ rings: [[GeoPoint]], _ point: GeoPoint) -> Bool {
        var inside = false
        for ring in rings {
            for index in 1..<ring.count {
                let a = ring[index - 1], b = ring[index]
                if (a.latitude > point.latitude) != (b.latitude > point.latitude),
                    point.longitude < a.longitude + (point.latitude - a.latitude) / (b.latitude - a.latitude)
                        * (b.longitude - a.longitude)
                {
                    inside.toggle()
                }
            }
        }
        return inside
    }

    @Test("the banded test agrees with the brute-force one on a 20 000-node jagged boundary with a hole")
    func bandedAgreesWithBruteForce() {
        var state: UInt64 = 7
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        func star(_ count: Int, radius: Double, jitter: Double) -> [GeoPoint] {
            var ring = (0..<count).map { index -> GeoPoint in
                let angle = Double(index) / Double(count) * 2 * .pi, r = radius * (1 - jitter * random())
                return GeoPoint(latitude: 60 + r * sin(angle), longitude: 25 + 2 * r * cos(angle))
            }
            ring.append(ring[0])
            return ring
        }
        let rings = [star(20_000, radius: 1, jitter: 0.3), star(500, radius: 0.3, jitter: 0.5)]
        let area = AdminBoundaryArea(code: "FI", level: 2, rings: rings)
        #expect(area.edgeCount == 20_500)
        var inside = 0
        for _ in 0..<3000 {
            let point = GeoPoint(latitude: 58.8 + 2.4 * random(), longitude: 22.6 + 4.8 * random())
            let expected = Self.bruteForce(rings, point)
            #expect(area.contains(point) == expected, "\(point)")
            if expected { inside += 1 }
        }
        #expect(inside > 500 && inside < 2500)
    }
}

import Foundation
import Testing
import RoadMap
@testable import RoadMapImport

/// Dual carriageways found from opposite one-ways of the same name, at the scale of a country.
@Suite("dual carriageway pairing")
struct DualCarriagewayPairingTests {
    static let legalDefaults = try! LegalDefaultSpeeds.bundled()

    /// A 400 m one-way of `name` heading east (`westbound`: west) at `latitude`, `longitude`.
    static func carriageway(
        id: Int64, name: String, latitude: Double, longitude: Double, westbound: Bool = false,
        oneway: String = "yes"
    ) -> DualCarriagewayPairing.Candidate {
        let tags = ["highway": "primary", "name": name, "oneway": oneway]
        let attributes = WayAttributes(
            highway: .primary, tags: tags, country: "FI", legalDefaults: legalDefaults,
            unknownArea: .urban)
        let east = longitude + 400 / (111_320 * cos(latitude * .pi / 180))
        let geometry = [
            GeoPoint(latitude: latitude, longitude: longitude), GeoPoint(latitude: latitude, longitude: east),
        ]
        return (id, tags, attributes, westbound ? geometry.reversed() : geometry)
    }

    @Test("3 000 'Main Street' dual carriageways across a country are all paired; same-name one-ways far apart are not")
    func pairsAtCountryScale() {
        var ways: [DualCarriagewayPairing.Candidate] = []
        var expected = Set<Int64>()
        // 1 500 towns on a 30 × 50 grid 5 km apart, each with a divided Main Street (carriageways
        // 20 m apart, opposite directions) and a one-way Main Street 300 m away with no partner.
        for town in 0..<1_500 {
            let latitude = 55 + Double(town / 50) * 0.045, longitude = 10 + Double(town % 50) * 0.08
            let id = Int64(town) * 10
            ways.append(Self.carriageway(id: id + 1, name: "Main Street", latitude: latitude, longitude: longitude))
            ways.append(
                Self.carriageway(
                    id: id + 2, name: "Main Street", latitude: latitude + 20 / 111_320,
                    longitude: longitude, westbound: true))
            ways.append(
                Self.carriageway(
                    id: id + 3, name: "Main Street", latitude: latitude + 300 / 111_320,
                    longitude: longitude, westbound: true))
            expected.formUnion([id + 1, id + 2])
        }
        let divided = DualCarriagewayPairing.dividedWays(ways, maximumDistance: 40)
        #expect(divided.count == 3_000)
        #expect(divided == expected)
    }

    @Test("same direction, another name, or farther than the distance: not a pair")
    func rejectsNonPairs() {
        let a = Self.carriageway(id: 1, name: "A", latitude: 60, longitude: 24)
        let sameDirection = Self.carriageway(id: 2, name: "A", latitude: 60 + 20 / 111_320, longitude: 24)
        let otherName = Self.carriageway(id: 3, name: "B", latitude: 60 + 20 / 111_320, longitude: 24, westbound: true)
        let far = Self.carriageway(id: 4, name: "A", latitude: 60 + 75 / 111_320, longitude: 24, westbound: true)
        #expect(DualCarriagewayPairing.dividedWays([a, sameDirection, otherName, far], maximumDistance: 40).isEmpty)
        let near = Self.carriageway(id: 5, name: "A", latitude: 60 + 30 / 111_320, longitude: 24, westbound: true)
        #expect(DualCarriagewayPairing.dividedWays([a, near], maximumDistance: 40) == [1, 5])
    }

    @Test("the grid finds every polyline within the distance at any latitude, long segments included")
    func gridFindsNeighbours() {
        for latitude in [0.0, 45, 60, 70] {
            var grid = SegmentGrid(cellMetres: 40)
            let metresPerDegree = 111_320 * cos(latitude * .pi / 180)
            // A 5 km segment running east, and a point 35 m north of its middle.
            let start = GeoPoint(latitude: latitude, longitude: 10),
                end = GeoPoint(latitude: latitude, longitude: 10 + 5_000 / metresPerDegree)
            grid.insert(7, geometry: [start, end])
            let point = GeoPoint(latitude: latitude + 35 / 111_320, longitude: 10 + 2_500 / metresPerDegree)
            #expect(grid.indices(near: point, within: 40) == [7], "latitude \(latitude)")
            let west = GeoPoint(latitude: latitude, longitude: 10 - 39 / metresPerDegree)
            #expect(grid.indices(near: west, within: 40) == [7], "39 m west of the start, latitude \(latitude)")
        }
    }
}

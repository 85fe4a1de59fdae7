import RoadMap

/// Finds one-way roads that are one half of a dual carriageway: a one-way with an opposite
/// one-way of the same name or ref running beside it.
///
/// Rule: both are one-way, neither is a ramp nor a roundabout, they share a name or a ref, the
/// middle of one lies within `maximumDistance` of the other's geometry, and their directions
/// there differ by more than 135°. Ways tagged `dual_carriageway=yes` count as divided too.
enum DualCarriagewayPairing {
    typealias Candidate = (id: Int64, tags: [String: String], attributes: WayAttributes, geometry: [GeoPoint])

    /// The ways that are one half of a dual carriageway. Pairs are looked up through a spatial
    /// grid of the candidates' geometry, so the cost grows with the road network (each way meets
    /// only the ways near its middle), not with how often a name or ref occurs: a country's
    /// thousands of "Main Street"s or a motorway ref along 500 km cost no more than a town's.
    static func dividedWays(_ ways: [Candidate], maximumDistance: Double) -> Set<Int64> {
        var divided = Set<Int64>()
        var keys: [[String]] = Array(repeating: [], count: ways.count)
        var grid = SegmentGrid(cellMetres: max(maximumDistance, 1))
        for (index, way) in ways.enumerated() {
            if way.tags["dual_carriageway"] == "yes" { divided.insert(way.id) }
            guard way.attributes.oneway != .no, !way.attributes.highway.isLink,
                way.attributes.formOfWay != .roundabout, way.geometry.count >= 2
            else { continue }
            keys[index] = [way.attributes.name.map { "n:" + $0 }, way.attributes.ref.map { "r:" + $0 }].compactMap {
                $0
            }
            if !keys[index].isEmpty { grid.insert(index, geometry: way.geometry) }
        }
        for (a, first) in ways.enumerated() where !keys[a].isEmpty {
            let length = first.geometry.polylineLength
            guard let middle = first.geometry.point(atOffset: length / 2)?.point else { continue }
            let headingA = drivingHeading(first, atOffset: length / 2)
            for b in grid.indices(near: middle, within: maximumDistance) where b != a {
                guard keys[b].contains(where: keys[a].contains) else { continue }
                let second = ways[b]
                guard let projection = second.geometry.project(middle), projection.distance <= maximumDistance else {
                    continue
                }
                if angleBetween(headingA, drivingHeading(second, atOffset: projection.offset)) > 135 {
                    divided.insert(first.id)
                    divided.insert(second.id)
                }
            }
        }
        return divided
    }

    /// Travel heading of a one-way at an offset along its geometry, degrees.
    static func drivingHeading(_ way: Candidate, atOffset offset: Double) -> Double {
        let heading = way.geometry.point(atOffset: offset)?.bearing ?? 0
        return way.attributes.oneway == .backward ? (heading + 180).truncatingRemainder(dividingBy: 360) : heading
    }

    static func angleBetween(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return difference > 180 ? 360 - difference : difference
    }
}

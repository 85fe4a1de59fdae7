import RoadMap

/// Finds one-way roads that are one half of a dual carriageway: a one-way with an opposite
/// one-way of the same name or ref running beside it.
///
/// Rule: both are one-way, neither is a ramp nor a roundabout, they share a name or a ref, the
/// middle of one lies within `maximumDistance` of the other's geometry, and their directions
/// there differ by more than 135°. Ways tagged `dual_carriageway=yes` count as divided too.
enum DualCarriagewayPairing {
    typealias Candidate = (id: Int64, tags: [String: String], attributes: WayAttributes, geometry: [GeoPoint])

    static func dividedWays(_ ways: [Candidate], maximumDistance: Double) -> Set<Int64> {
        var divided = Set<Int64>()
        var byKey: [String: [Int]] = [:]
        for (index, way) in ways.enumerated() {
            if way.tags["dual_carriageway"] == "yes" { divided.insert(way.id) }
            guard way.attributes.oneway != .no, !way.attributes.highway.isLink,
                  way.attributes.formOfWay != .roundabout, way.geometry.count >= 2 else { continue }
            for key in [way.attributes.name.map { "n:" + $0 }, way.attributes.ref.map { "r:" + $0 }].compactMap({ $0 }) {
                byKey[key, default: []].append(index)
            }
        }
        for key in byKey.keys.sorted() {
            let group = byKey[key]!
            guard group.count >= 2, group.count <= 200 else { continue }
            for a in group {
                let first = ways[a]
                guard let middle = first.geometry.point(atOffset: first.geometry.polylineLength / 2)?.point else { continue }
                let headingA = drivingHeading(first, atOffset: first.geometry.polylineLength / 2)
                for b in group where b != a {
                    let second = ways[b]
                    guard let projection = second.geometry.project(middle), projection.distance <= maximumDistance else { continue }
                    let headingB = drivingHeading(second, atOffset: projection.offset)
                    if angleBetween(headingA, headingB) > 135 {
                        divided.insert(first.id)
                        divided.insert(second.id)
                    }
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

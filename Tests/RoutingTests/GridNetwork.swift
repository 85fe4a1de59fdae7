import RoadMap
import TestSupport

/// A street grid of `size` × `size` junctions 100 m apart near Helsinki: link ids 1…, node ids
/// `row * size + column + 1`. With a generator: random one-way streets, speed limits, signals,
/// missing streets and turn restrictions.
struct GridNetwork {
    let size: Int
    var links: [RoadLink] = []
    var restrictions: [TurnRestriction] = []
    static let origin = GeoPoint(latitude: 60.17, longitude: 24.93)

    static func position(row: Int, column: Int) -> GeoPoint {
        GeoPoint(
            latitude: origin.latitude + Double(row) * 100 / 111_320,
            longitude: origin.longitude + Double(column) * 100 / (111_320 * 0.4962))
    }

    func node(row: Int, column: Int) -> NodeID { NodeID(Int64(row * size + column + 1)) }

    init(size: Int, generator: inout SplitMix64?) {
        self.size = size
        var nextID: UInt64 = 1
        for row in 0..<size {
            for column in 0..<size {
                for (dr, dc) in [(0, 1), (1, 0)] where row + dr < size && column + dc < size {
                    if var random = generator, Int.random(in: 0..<10, using: &random) == 0 {
                        generator = random
                        continue  // a missing street
                    }
                    var oneway = Oneway.no
                    var limit = 50.0
                    var features: [PointFeature] = []
                    if var random = generator {
                        oneway = [Oneway.no, .no, .no, .forward, .backward].randomElement(using: &random)!
                        limit = [30.0, 40, 50, 60, 80].randomElement(using: &random)!
                        if Int.random(in: 0..<8, using: &random) == 0 {
                            features = [PointFeature(kind: .trafficSignals, offset: 90, direction: nil)]
                        }
                        generator = random
                    }
                    let attributes = DirectionalAttributes(
                        speedLimit: SpeedLimit(value: .kilometresPerHour(limit), kind: .explicit))
                    links.append(
                        RoadLink(
                            id: LinkID(nextID), wayID: Int64(nextID), startNode: node(row: row, column: column),
                            endNode: node(row: row + dr, column: column + dc),
                            geometry: [
                                Self.position(row: row, column: column),
                                Self.position(row: row + dr, column: column + dc),
                            ],
                            highway: .residential, oneway: oneway, forward: attributes, backward: attributes,
                            features: features))
                    nextID += 1
                }
            }
        }
        if var random = generator {
            // Forbid a few turns at random junctions.
            let byNode = Dictionary(grouping: links.flatMap { [($0.startNode, $0.id), ($0.endNode, $0.id)] }, by: \.0)
            for (node, incident) in byNode.sorted(by: { $0.key < $1.key }) where incident.count >= 3 {
                guard Int.random(in: 0..<6, using: &random) == 0 else { continue }
                let ids = incident.map(\.1).sorted()
                restrictions.append(TurnRestriction(from: ids[0], via: node, to: ids[1], kind: .prohibitory))
            }
            generator = random
        }
    }

    var network: InMemoryRoadNetwork { InMemoryRoadNetwork(links: links, restrictions: restrictions) }
}

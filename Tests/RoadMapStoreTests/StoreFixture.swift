import RoadMap
import RoadMapStore

/// A small road graph written straight from links (no import): a main street (way 1, west→east,
/// two-way, 50 km/h) split at node 12, crossed there by a one-way street in a tunnel (way 2,
/// north→south) with a no-left-turn restriction onto the main street, and a service road (way 3)
/// leaving the main street's east end. Way 2 reaches into the tile to the south.
enum StoreFixture {
    /// A point at the map's 1e-7° resolution, so that links read back equal to what was written.
    static func point(_ latitude: Double, _ longitude: Double) -> GeoPoint {
        GeoPoint(
            latitude: TileCoordinate.degrees(TileCoordinate.fixedPoint(latitude)),
            longitude: TileCoordinate.degrees(TileCoordinate.fixedPoint(longitude)))
    }

    /// The graph, its links identified by home tile and index and sorted by identifier.
    static func graph() -> RoadGraph {
        let fifty = DirectionalAttributes(speedLimit: SpeedLimit(value: .kilometresPerHour(50), kind: .explicit))
        typealias Draft = (
            way: Int64, start: Int64, end: Int64, geometry: [GeoPoint], highway: HighwayClass, oneway: Oneway
        )
        let drafts: [Draft] = [
            (1, 10, 12, [point(60.1700, 24.9400), point(60.1700, 24.9410), point(60.1700, 24.9420)], .secondary, .no),
            (1, 12, 13, [point(60.1700, 24.9420), point(60.1700, 24.9430)], .secondary, .no),
            (2, 20, 12, [point(60.1710, 24.9420), point(60.1700, 24.9420)], .residential, .forward),
            (2, 12, 21, [point(60.1700, 24.9420), point(60.1690, 24.9420)], .residential, .forward),
            (3, 13, 30, [point(60.1700, 24.9430), point(60.1690, 24.9430)], .service, .no),
        ]
        var nextIndex: [TileKey: UInt32] = [:]
        var links: [RoadLink] = []
        for draft in drafts {
            let home = TileKey(containing: draft.geometry[0])
            let index = nextIndex[home, default: 0]
            nextIndex[home] = index + 1
            links.append(
                RoadLink(
                    id: LinkID(tile: home, index: index), wayID: draft.way,
                    startNode: NodeID(draft.start), endNode: NodeID(draft.end),
                    geometry: draft.geometry, highway: draft.highway,
                    name: draft.way == 1 ? "Main" : nil, oneway: draft.oneway,
                    forward: draft.way == 1 ? fifty : .init(), backward: draft.way == 1 ? fifty : .init(),
                    tunnel: draft.way == 2 ? true : nil))
        }
        let southbound = links[2].id, mainEast = links[1].id
        let restriction = TurnRestriction(from: southbound, via: NodeID(12), to: mainEast, kind: .prohibitory)
        return RoadGraph(links: links.sorted { $0.id < $1.id }, restrictions: [restriction], report: ImportReport())
    }
}

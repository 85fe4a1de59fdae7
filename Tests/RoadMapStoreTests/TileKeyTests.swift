import RoadMap
import Testing
@testable import RoadMapStore

@Suite("tile keys and link identifiers")
struct TileKeyTests {
    @Test("a point lies inside the tile that contains it")
    func containing() {
        let point = GeoPoint(latitude: 60.16952, longitude: 24.93545)
        let tile = TileKey(containing: point)
        #expect(
            tile.southWest.latitude <= point.latitude && point.latitude < tile.southWest.latitude + TileKey.sizeDegrees)
        #expect(
            tile.southWest.longitude <= point.longitude
                && point.longitude < tile.southWest.longitude + TileKey.sizeDegrees)
        #expect(TileKey(packed: tile.packed) == tile)
    }

    @Test("a query radius near a tile corner covers the neighbouring tiles, a small one in the middle does not")
    func covering() {
        let corner = GeoPoint(latitude: 60.17, longitude: 24.94)
        #expect(Set(TileKey.covering(corner, radius: 50)).count == 4)
        let middle = GeoPoint(latitude: 60.175, longitude: 24.945)
        #expect(TileKey.covering(middle, radius: 50) == [TileKey(containing: middle)])
    }

    @Test("a link identifier round-trips its tile and index")
    func linkID() {
        let tile = TileKey(containing: GeoPoint(latitude: 60.2, longitude: 24.9))
        let id = LinkID(tile: tile, index: 1234)
        #expect(id.tile == tile)
        #expect(id.indexInTile == 1234)
    }
}

import RoadMap
import Testing

@testable import MapTiles

@Suite("vector tile encoding")
struct VectorTileEncodingTests {
    @Test("varints and zigzag as the protobuf encoding guide gives them")
    func varintsAndZigzag() {
        var writer = ProtobufWriter()
        writer.varint(1)
        writer.varint(150)
        writer.varint(300)
        #expect(writer.bytes == [0x01, 0x96, 0x01, 0xAC, 0x02])
        #expect(ProtobufWriter.zigzag(Int32(0)) == 0)
        #expect(ProtobufWriter.zigzag(Int32(-1)) == 1)
        #expect(ProtobufWriter.zigzag(Int32(1)) == 2)
        #expect(ProtobufWriter.zigzag(Int32(-2)) == 3)
        #expect(ProtobufWriter.zigzag(Int32.min) == UInt32.max)
    }

    @Test("line geometry: the MVT 2.1 spec's example (4.3.5.2), repeated points left out")
    func lineGeometry() {
        let line = [TilePoint(x: 2, y: 2), TilePoint(x: 2, y: 10), TilePoint(x: 2, y: 10), TilePoint(x: 10, y: 10)]
        #expect(VectorTileLayer.lineGeometry([line]) == [9, 4, 4, 18, 0, 16, 16, 0])
        // The spec's multi-linestring: the cursor carries over to the second line.
        let second = [TilePoint(x: 1, y: 1), TilePoint(x: 3, y: 5)]
        #expect(VectorTileLayer.lineGeometry([line, second]) == [9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8])
        #expect(VectorTileLayer.lineGeometry([[TilePoint(x: 1, y: 1), TilePoint(x: 1, y: 1)]]).isEmpty)
    }

    @Test("a layer with no drawable feature is left out of the tile")
    func emptyLayer() {
        var layer = VectorTileLayer(name: "roads")
        layer.addLines([[TilePoint(x: 5, y: 5)]], id: 1, attributes: ["class": .string("primary")])
        #expect(layer.featureCount == 0)
        #expect(VectorTile(layers: [layer]).encoded().isEmpty)
    }

    @Test("clipping keeps the parts inside and splits a line that leaves and comes back")
    func clipping() {
        let box = GridRectangle(minimumX: 0, minimumY: 0, maximumX: 10, maximumY: 10)
        let pieces = box.clip([(-5, 5), (5, 5), (5, 15), (8, 15), (8, 5), (8, -5)])
        #expect(pieces.count == 2)
        #expect(pieces[0].map { $0.x } == [0, 5, 5] && pieces[0].map { $0.y } == [5, 5, 10])
        #expect(pieces[1].map { $0.x } == [8, 8, 8] && pieces[1].map { $0.y } == [10, 5, 0])
        #expect(box.clip([(20, 20), (30, 30)]).isEmpty)
    }

    @Test("tile addresses: Web Mercator position of Helsinki's railway station, bad addresses refused")
    func addresses() throws {
        // 60.1710 N 24.9414 E is in tile 14/9327/4742 (OSM wiki slippy-map formulas, evaluated in Python).
        let station = GeoPoint(latitude: 60.1710, longitude: 24.9414)
        let address = try TileAddress(containing: station, zoom: 14)
        #expect(address.description == "14/9327/4742")
        let grid = address.gridPosition(station, extent: 4096)
        let back = address.point(gridX: grid.x, gridY: grid.y, extent: 4096)
        #expect(back.distance(to: station) < 0.001)
        #expect(try TileAddress(parsing: "14/9327/4742") == address)
        #expect(throws: TileAddressError.malformed("14/x/1")) { try TileAddress(parsing: "14/x/1") }
        #expect(throws: TileAddressError.malformed("14/1")) { try TileAddress(parsing: "14/1") }
        #expect(throws: TileAddressError.malformed("14/-/1")) { try TileAddress(parsing: "14/-/1") }
        #expect(throws: TileAddressError.zoomOutOfRange(zoom: 25, supported: 0...24)) {
            try TileAddress(parsing: "25/0/0")
        }
        #expect(throws: TileAddressError.tileOutOfRange(zoom: 2, x: 4, y: 0)) { try TileAddress(parsing: "2/4/0") }
        #expect(throws: TileAddressError.tileOutOfRange(zoom: 2, x: 0, y: -1)) { try TileAddress(parsing: "2/0/-1") }
    }
}

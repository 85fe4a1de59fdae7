import RoadMap
import Testing
@testable import RoadMapStore

@Suite("tile BLOB integrity")
struct TileCodecTests {
    static let tile = TileKey(containing: GeoPoint(latitude: 60.17, longitude: 24.94))

    @Test("a tile of links round-trips")
    func roundTrip() throws {
        var second = RoadLinkCodingTests.link
        second.id = LinkID(tile: Self.tile, index: 8)
        second.name = nil
        let tile = MapTile(
            links: [RoadLinkCodingTests.link, second], passingLinks: [LinkID(7), LinkID(1 << 40)],
            linksAtNode: [NodeID(-5): [second.id], NodeID(12): [RoadLinkCodingTests.link.id, second.id]],
            restrictions: [
                TurnRestriction(
                    from: second.id, via: NodeID(12), to: RoadLinkCodingTests.link.id,
                    kind: .mandatory)
            ])
        let blob = TileCodec.encode(tile)
        #expect(try TileCodec.decode(blob, tile: Self.tile) == tile)
    }

    @Test("a flipped byte anywhere in the BLOB is reported as a damaged tile")
    func damaged() {
        let blob = TileCodec.encode(MapTile(links: [RoadLinkCodingTests.link], passingLinks: [LinkID(3)]))
        for index in stride(from: 0, to: blob.count, by: 7) {
            var damaged = blob
            damaged[index] ^= 0x5A
            #expect(throws: TileIntegrityError.self) { try TileCodec.decode(damaged, tile: Self.tile) }
        }
    }

    @Test("a newer tile format is refused with its version")
    func newerVersion() {
        var writer = TileByteWriter()
        writer.writeVarint(TileCodec.formatVersion + 1)
        writer.writeVarint(0)
        let crc = TileChecksum.crc32(of: writer.bytes)
        let blob =
            [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)] + writer.bytes
        #expect(throws: TileIntegrityError.unsupportedVersion(tile: Self.tile, version: TileCodec.formatVersion + 1)) {
            try TileCodec.decode(blob, tile: Self.tile)
        }
    }

    @Test("a tile of an older format (before road objects) is refused as older, asking for a re-import")
    func olderVersion() {
        var writer = TileByteWriter()
        writer.writeVarint(TileCodec.formatVersion - 1)
        writer.writeVarint(0)
        let crc = TileChecksum.crc32(of: writer.bytes)
        let blob =
            [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)] + writer.bytes
        #expect(throws: TileIntegrityError.olderVersion(tile: Self.tile, version: TileCodec.formatVersion - 1)) {
            try TileCodec.decode(blob, tile: Self.tile)
        }
        let text = MapFileError.damagedTile(
            path: "old.map", .olderVersion(tile: Self.tile, version: TileCodec.formatVersion - 1)
        ).description
        #expect(text.contains("older") && text.contains("re-import"))
    }
}

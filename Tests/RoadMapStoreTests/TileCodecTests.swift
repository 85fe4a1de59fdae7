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
            ],
            longestWaysOn: [DirectedLink(second.id, .backward): 63.25, DirectedLink(second.id, .forward): 0.5],
            turns: {
                var turns = TileTurns()
                turns.append(forward: [DirectedLink(second.id, .forward)], backward: [])
                turns.append(
                    forward: [
                        DirectedLink(LinkID(1 << 40), .backward), DirectedLink(RoadLinkCodingTests.link.id, .forward),
                    ],
                    backward: [DirectedLink(second.id, .forward)])
                return turns
            }())
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

    /// A tile with no links and one longest way on: `direction` and `length` as stored.
    static func blob(longestWayOnDirection direction: UInt64, length: Double) -> [UInt8] {
        var writer = TileByteWriter()
        writer.writeVarint(TileCodec.formatVersion)
        for _ in 0..<4 { writer.writeVarint(0) }  // links, passing links, nodes, restrictions
        writer.writeVarint(1)
        writer.writeVarint(LinkID(tile: tile, index: 0).rawValue)
        writer.writeVarint(direction)
        writer.writeVarint(length.bitPattern)
        let crc = TileChecksum.crc32(of: writer.bytes)
        return [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)] + writer.bytes
    }

    @Test("a longest way on with an unknown direction or a length that is no distance is refused, naming it")
    func longestWayOnValues() throws {
        let good = try TileCodec.decode(Self.blob(longestWayOnDirection: 1, length: 40), tile: Self.tile)
        #expect(good.longestWaysOn == [DirectedLink(LinkID(tile: Self.tile, index: 0), .backward): 40])
        for (direction, length, field) in [
            (UInt64(2), 40.0, "longest way on direction"), (0, -1, "longest way on"), (0, .nan, "longest way on"),
            (0, .infinity, "longest way on"),
        ] {
            #expect {
                try TileCodec.decode(Self.blob(longestWayOnDirection: direction, length: length), tile: Self.tile)
            } throws: { error in
                guard case .undecodable(_, .invalidValue(let name, _)) = error as? TileIntegrityError else {
                    return false
                }
                return name == field
            }
        }
    }

    @Test("a turn to a link of the tile beyond any index is refused, naming it")
    func turnBeyondTheTile() throws {
        var turns = TileTurns()
        turns.append(
            forward: [DirectedLink(LinkID(1 << 40), .backward)],
            backward: [DirectedLink(RoadLinkCodingTests.link.id, .forward)])
        let tile = MapTile(links: [RoadLinkCodingTests.link], turns: turns)
        #expect(try TileCodec.decode(TileCodec.encode(tile), tile: Self.tile) == tile)
        var writer = TileByteWriter()
        writer.writeVarint(TileCodec.formatVersion)
        writer.writeVarint(1)
        RoadLinkCoding.encode(RoadLinkCodingTests.link, into: &writer)
        for _ in 0..<4 { writer.writeVarint(0) }  // passing links, nodes, restrictions, longest ways on
        writer.writeVarint(1)
        writer.writeVarint(UInt64(1) << 36)  // a link of this tile at index 2^34 (index << 2)
        writer.writeVarint(0)
        let crc = TileChecksum.crc32(of: writer.bytes)
        let blob =
            [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)] + writer.bytes
        #expect {
            try TileCodec.decode(blob, tile: Self.tile)
        } throws: { error in
            guard case .undecodable(_, .invalidValue(let name, _)) = error as? TileIntegrityError else { return false }
            return name == "turn"
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

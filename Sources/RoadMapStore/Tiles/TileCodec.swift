import RoadMap

/// Why a tile BLOB was rejected as a whole.
public enum TileIntegrityError: Error, Hashable, Sendable {
    /// The stored CRC-32 does not match the payload: the tile is damaged.
    case checksumMismatch(tile: TileKey, stored: UInt32, computed: UInt32)
    /// The tile was written in a newer tile format than this reader understands.
    case unsupportedVersion(tile: TileKey, version: UInt64)
    /// The tile was written in an older tile format that this reader no longer reads.
    case olderVersion(tile: TileKey, version: UInt64)
    /// The payload could not be decoded (see the wrapped error for where).
    case undecodable(tile: TileKey, TileDecodingError)
}

/// Encodes a ``MapTile`` into a BLOB and back.
///
/// BLOB layout: 4-byte little-endian CRC-32 of the rest, then the tile format version (varint),
/// the link count and the links (``RoadLinkCoding``), the passing links (count, ids), the node
/// adjacency (count, then node, link count, link ids), the turn restrictions (count, then from,
/// via, to, kind), the longest ways on (count, then link id, direction 0 forward / 1 backward,
/// length as its IEEE-754 bit pattern), sorted by directed link, then the turns: for each link,
/// forward then backward, the successor count and each successor as one varint: a link of this
/// tile (the tile of its first link) as `index << 2 | direction << 1`, any other as
/// `id << 2 | direction << 1 | 1` (direction 0 forward, 1 backward).
package enum TileCodec {
    /// The tile format version written by this code.
    package static let formatVersion: UInt64 = 5

    /// The BLOB for `tile`.
    package static func encode(_ tile: MapTile) -> [UInt8] {
        var writer = TileByteWriter()
        writer.writeVarint(formatVersion)
        writer.writeVarint(UInt64(tile.links.count))
        for link in tile.links { RoadLinkCoding.encode(link, into: &writer) }
        writer.writeVarint(UInt64(tile.passingLinks.count))
        for id in tile.passingLinks { writer.writeVarint(id.rawValue) }
        writer.writeVarint(UInt64(tile.linksAtNode.count))
        for (node, ids) in tile.linksAtNode.sorted(by: { $0.key < $1.key }) {
            writer.writeSignedVarint(node.rawValue)
            writer.writeVarint(UInt64(ids.count))
            for id in ids { writer.writeVarint(id.rawValue) }
        }
        writer.writeVarint(UInt64(tile.restrictions.count))
        for restriction in tile.restrictions {
            writer.writeVarint(restriction.from.rawValue)
            writer.writeSignedVarint(restriction.via.rawValue)
            writer.writeVarint(restriction.to.rawValue)
            writer.writeVarint(UInt64(restriction.kind.rawValue))
        }
        writer.writeVarint(UInt64(tile.longestWaysOn.count))
        for (directed, length) in tile.longestWaysOn.sorted(by: { $0.key < $1.key }) {
            writer.writeVarint(directed.link.rawValue)
            writer.writeVarint(directed.direction == .forward ? 0 : 1)
            writer.writeVarint(length.bitPattern)
        }
        let home = tile.links.first?.id.tile
        for index in 0..<tile.turns.linkCount {
            for direction in [LinkDirection.forward, .backward] {
                let successors = tile.turns.successors(ofLinkAt: index, direction)
                writer.writeVarint(UInt64(successors.count))
                for successor in successors {
                    let directionBit = UInt64(successor.direction.rawValue) << 1
                    if let home, successor.link.tile == home {
                        writer.writeVarint(UInt64(successor.link.indexInTile) << 2 | directionBit)
                    } else {
                        writer.writeVarint(successor.link.rawValue << 2 | directionBit | 1)
                    }
                }
            }
        }
        let crc = TileChecksum.crc32(of: writer.bytes)
        return [
            UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8),
            UInt8(truncatingIfNeeded: crc >> 16), UInt8(truncatingIfNeeded: crc >> 24),
        ] + writer.bytes
    }

    /// The tile in the BLOB of `tile`, after checking its checksum and version.
    package static func decode(_ blob: [UInt8], tile: TileKey) throws(TileIntegrityError) -> MapTile {
        guard blob.count >= 4 else {
            throw .undecodable(tile: tile, .truncated(offset: 0))
        }
        let stored = UInt32(blob[0]) | UInt32(blob[1]) << 8 | UInt32(blob[2]) << 16 | UInt32(blob[3]) << 24
        let payload = Array(blob[4...])
        let computed = TileChecksum.crc32(of: payload)
        guard stored == computed else {
            throw .checksumMismatch(tile: tile, stored: stored, computed: computed)
        }
        var reader = TileByteReader(payload)
        do {
            let version = try reader.readVarint()
            guard version == formatVersion else {
                if version > formatVersion { throw TileIntegrityError.unsupportedVersion(tile: tile, version: version) }
                throw TileIntegrityError.olderVersion(tile: tile, version: version)
            }
            var links: [RoadLink] = []
            let linkCount = try count(&reader)
            links.reserveCapacity(linkCount)
            for _ in 0..<linkCount { links.append(try RoadLinkCoding.decode(from: &reader)) }
            var passing: [LinkID] = []
            for _ in 0..<(try count(&reader)) { passing.append(LinkID(try reader.readVarint())) }
            var linksAtNode: [NodeID: [LinkID]] = [:]
            for _ in 0..<(try count(&reader)) {
                let node = NodeID(try reader.readSignedVarint())
                var ids: [LinkID] = []
                for _ in 0..<(try count(&reader)) { ids.append(LinkID(try reader.readVarint())) }
                linksAtNode[node] = ids
            }
            var restrictions: [TurnRestriction] = []
            for _ in 0..<(try count(&reader)) {
                let from = LinkID(try reader.readVarint())
                let via = NodeID(try reader.readSignedVarint())
                let to = LinkID(try reader.readVarint())
                let kindOffset = reader.offset
                guard let kind = TurnRestriction.Kind(rawValue: UInt8(clamping: try reader.readVarint())) else {
                    throw TileIntegrityError.undecodable(
                        tile: tile, .invalidValue(field: "restriction kind", offset: kindOffset))
                }
                restrictions.append(TurnRestriction(from: from, via: via, to: to, kind: kind))
            }
            var longestWaysOn: [DirectedLink: Double] = [:]
            for _ in 0..<(try count(&reader)) {
                let link = LinkID(try reader.readVarint())
                let directionOffset = reader.offset
                let direction: LinkDirection
                switch try reader.readVarint() {
                case 0: direction = .forward
                case 1: direction = .backward
                default:
                    throw TileIntegrityError.undecodable(
                        tile: tile, .invalidValue(field: "longest way on direction", offset: directionOffset))
                }
                let lengthOffset = reader.offset
                let length = Double(bitPattern: try reader.readVarint())
                guard length.isFinite, length >= 0 else {
                    throw TileIntegrityError.undecodable(
                        tile: tile, .invalidValue(field: "longest way on", offset: lengthOffset))
                }
                longestWaysOn[DirectedLink(link, direction)] = length
            }
            // Straight into the flat lists: one allocation per tile, not two per link.
            var starts: [Int32] = [0]
            starts.reserveCapacity(2 * linkCount + 1)
            var successors: [DirectedLink] = []
            successors.reserveCapacity(6 * linkCount)
            let home = links.first?.id.tile
            for _ in 0..<2 * linkCount {
                for _ in 0..<(try count(&reader)) {
                    let codeOffset = reader.offset
                    let code = try reader.readVarint()
                    let direction: LinkDirection = code & 2 == 0 ? .forward : .backward
                    if code & 1 == 1 {
                        successors.append(DirectedLink(LinkID(code >> 2), direction))
                    } else {
                        guard let home, code >> 2 <= UInt64(UInt32.max) else {
                            throw TileIntegrityError.undecodable(
                                tile: tile, .invalidValue(field: "turn", offset: codeOffset))
                        }
                        successors.append(DirectedLink(LinkID(tile: home, index: UInt32(code >> 2)), direction))
                    }
                }
                starts.append(Int32(successors.count))
            }
            let turns = TileTurns(starts: starts, successors: successors)
            return MapTile(
                links: links, passingLinks: passing, linksAtNode: linksAtNode, restrictions: restrictions,
                longestWaysOn: longestWaysOn, turns: turns)
        } catch let error as TileIntegrityError {
            throw error
        } catch let error as TileDecodingError {
            throw .undecodable(tile: tile, error)
        } catch {
            throw .undecodable(tile: tile, .truncated(offset: reader.offset))
        }
    }

    /// A count that cannot exceed the bytes left (each element takes at least one byte).
    private static func count(_ reader: inout TileByteReader) throws(TileDecodingError) -> Int {
        let offset = reader.offset
        let value = try reader.readVarint()
        guard value <= UInt64(reader.remainingCount) else {
            throw .implausibleCount(Int(clamping: value), offset: offset)
        }
        return Int(value)
    }
}

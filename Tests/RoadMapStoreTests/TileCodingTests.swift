import RoadMap
import Testing
@testable import RoadMapStore

@Suite("tile binary coding")
struct TileCodingTests {
    @Test("varints and signed varints round-trip, including extremes")
    func varints() throws {
        let unsigned: [UInt64] = [0, 1, 127, 128, 300, UInt64(UInt32.max), .max]
        let signed: [Int64] = [0, -1, 1, -64, 64, .min, .max]
        var writer = TileByteWriter()
        unsigned.forEach { writer.writeVarint($0) }
        signed.forEach { writer.writeSignedVarint($0) }
        var reader = TileByteReader(writer.bytes)
        for value in unsigned { #expect(try reader.readVarint() == value) }
        for value in signed { #expect(try reader.readSignedVarint() == value) }
        #expect(reader.isAtEnd)
    }

    @Test("geometry round-trips to 1e-7 degrees and small steps are compact")
    func geometry() throws {
        let points = [
            GeoPoint(latitude: 60.1699, longitude: 24.9384),
            GeoPoint(latitude: 60.16995, longitude: 24.93851),
            GeoPoint(latitude: 60.17001, longitude: 24.93849),
        ]
        var writer = TileByteWriter()
        writer.writeGeometry(points)
        var reader = TileByteReader(writer.bytes)
        let decoded = try reader.readGeometry()
        try #require(decoded.count == points.count)
        for (original, copy) in zip(points, decoded) {
            #expect(abs(original.latitude - copy.latitude) <= 0.5e-7)
            #expect(abs(original.longitude - copy.longitude) <= 0.5e-7)
        }
        // 1 count byte + 2 × 5-byte absolute first point + small deltas of ≤ 3 bytes each.
        #expect(writer.bytes.count <= 1 + 10 + 4 * 3)
    }

    @Test("a truncated BLOB gives a typed error instead of a crash")
    func truncated() {
        var writer = TileByteWriter()
        writer.writeGeometry([GeoPoint(latitude: 60.2, longitude: 24.9), GeoPoint(latitude: 60.3, longitude: 25.0)])
        var reader = TileByteReader(Array(writer.bytes.dropLast()))
        #expect(throws: TileDecodingError.self) { try reader.readGeometry() }
        var huge = TileByteWriter()
        huge.writeVarint(1_000_000)
        var hugeReader = TileByteReader(huge.bytes)
        #expect(throws: TileDecodingError.implausibleCount(1_000_000, offset: 0)) { try hugeReader.readGeometry() }
    }

    @Test("the CRC-32 matches the standard check value and detects a flipped byte")
    func checksum() {
        #expect(TileChecksum.crc32(of: Array("123456789".utf8)) == 0xCBF4_3926)
        var bytes: [UInt8] = Array("tile payload".utf8)
        let original = TileChecksum.crc32(of: bytes)
        bytes[3] ^= 0xFF
        #expect(TileChecksum.crc32(of: bytes) != original)
    }
}

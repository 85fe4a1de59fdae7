import Foundation
import OpenLR
import RoadMap
import TestSupport
import Testing

@Suite struct OpenLRBinaryTests {
    // The three-point line location of the OpenLR whitepaper's binary example
    // ("CwRbWyNG9RpsCQCb/jsbtAT/6/+jK1lE"); the values below are what the Python `openlr`
    // package (TomTom's) reads from it.
    static let whitepaperExample: [UInt8] = [
        0x0B, 0x04, 0x5B, 0x5B, 0x23, 0x46, 0xF5, 0x1A, 0x6C, 0x09, 0x00, 0x9B, 0xFE, 0x3B, 0x1B, 0xB4, 0x04,
        0xFF, 0xEB, 0xFF, 0xA3, 0x2B, 0x59, 0x44,
    ]

    @Test func readsTheWhitepaperExample() throws {
        let reference = try OpenLRBinary.decode(bytes: Self.whitepaperExample)
        #expect(reference.points.count == 3)
        let first = reference.points[0]
        #expect(abs(first.coordinate.longitude - 6.12682) < 0.00001)
        #expect(abs(first.coordinate.latitude - 49.60852) < 0.00001)
        #expect(first.functionalRoadClass == 3 && first.formOfWay == .multipleCarriageway)
        #expect(first.bearingSector == 12 && first.lowestFRCToNextPoint == 3)
        #expect(first.distanceToNextPoint == 9.5 * OpenLRBinary.distanceInterval)  // 557 m
        let last = reference.points[2]
        #expect(abs(last.coordinate.longitude - 6.12816) < 0.00001)
        #expect(abs(last.coordinate.latitude - 49.60306) < 0.00001)
        #expect(last.functionalRoadClass == 5 && last.formOfWay == .singleCarriageway)
        #expect(last.lowestFRCToNextPoint == nil)
        #expect(reference.positiveOffset == 68.5 / 256)  // bucket 68: 0.267578125
        #expect(reference.negativeOffset == 0)
        #expect(try OpenLRBinary.encodeBytes(reference) == Self.whitepaperExample)
    }

    /// Found by `Tools/fuzz openlr` (issue 16): points 0.32768° of longitude apart (relative coordinate
    /// -32768, the smallest two signed bytes hold) were read, but writing them again refused them
    /// as too far apart.
    @Test func writesAgainTheSmallestRelativeCoordinateItReads() throws {
        let bytes: [UInt8] = [
            0x0B, 0x11, 0xBB, 0xE1, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,
        ]
        let reference = try OpenLRBinary.decode(bytes: bytes)
        #expect(
            abs(reference.points[1].coordinate.longitude - reference.points[0].coordinate.longitude + 0.32768) < 1e-9)
        let written = try OpenLRBinary.encodeBytes(reference)
        #expect(written == bytes)
        #expect(try OpenLRBinary.decode(bytes: written) == reference)
        // One unit further (-32769) does not fit the format.
        var farther = reference
        farther.points[1].coordinate.longitude -= 0.00001
        #expect(throws: OpenLRFormatError.pointsTooFarApart(index: 0)) { try OpenLRBinary.encodeBytes(farther) }
    }

    @Test func refusesWhatIsNoVersion3LineLocation() {
        var bytes = Self.whitepaperExample
        #expect(throws: OpenLRFormatError.notBase64) { try OpenLRBinary.decode(base64: "not base64!") }
        bytes[0] = 0x0A  // version 2
        #expect(throws: OpenLRFormatError.unsupportedVersion(2)) { try OpenLRBinary.decode(bytes: bytes) }
        bytes[0] = 0x2B  // point along line
        #expect(throws: OpenLRFormatError.notALineLocation(header: 0x2B)) { try OpenLRBinary.decode(bytes: bytes) }
        #expect(throws: OpenLRFormatError.truncated(expected: 16, actual: 10)) {
            try OpenLRBinary.decode(bytes: Array(Self.whitepaperExample.prefix(10)))
        }
        // The positive offset flag is set but its byte is missing.
        #expect(throws: OpenLRFormatError.truncated(expected: 24, actual: 23)) {
            try OpenLRBinary.decode(bytes: Array(Self.whitepaperExample.dropLast()))
        }
        #expect(throws: OpenLRFormatError.invalidLength(25)) {
            try OpenLRBinary.decode(bytes: Self.whitepaperExample + [0])
        }
    }

    @Test func anyBytesGiveAReferenceOrATypedError() {
        var random = SplitMix64(seed: 13)
        for _ in 0..<20_000 {
            var bytes = Self.whitepaperExample
            let count = Int(random.next() % 40)
            bytes =
                count < bytes.count ? Array(bytes.prefix(count)) : bytes + (0..<(count - bytes.count)).map { _ in 0 }
            for _ in 0..<3 where !bytes.isEmpty {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            if let reference = try? OpenLRBinary.decode(bytes: bytes) {
                #expect(reference.points.count >= 2)
            }
        }
    }
}

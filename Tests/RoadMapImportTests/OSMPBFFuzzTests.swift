import RoadMap
import Testing
@testable import RoadMapImport
import TestSupport

/// Inputs that must each end in elements or a typed error — a trap would crash the test process.
@Suite("OSM PBF fuzzing")
struct OSMPBFFuzzTests {
    private static func mutated(_ bytes: [UInt8], random: inout SplitMix64, in range: Range<Int>? = nil) -> [UInt8] {
        var bytes = bytes
        let range = range ?? 0..<bytes.count
        for _ in 0...random.below(4) {
            bytes[range.lowerBound + random.below(range.count)] = UInt8(truncatingIfNeeded: random.next())
        }
        if random.below(4) == 0 { bytes.removeLast(random.below(bytes.count)) }
        return bytes
    }

    @Test("2000 random byte strings, some starting with a plausible length prefix, only throw or succeed")
    func randomBytes() {
        var random = SplitMix64(seed: 0x0511_2026)
        for _ in 0..<2_000 {
            var bytes = (0..<random.below(200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if bytes.count > 4 && random.below(2) == 0 { bytes[0...2] = [0, 0, 0] }
            let outcome = OSMPBFReadOutcome(bytes)
            #expect(outcome.error != nil || outcome.blocks == 0)
        }
    }

    @Test("2000 mutations of a synthetic file (raw blobs) only throw or succeed, and both happen")
    func mutatedSyntheticFile() {
        var random = SplitMix64(seed: 42)
        let file = SyntheticPBF.file()
        var failures = 0, successes = 0
        for _ in 0..<2_000 {
            let outcome = OSMPBFReadOutcome(Self.mutated(file, random: &random))
            if outcome.error == nil { successes += 1 } else { failures += 1 }
        }
        #expect(failures > 0 && successes > 0)
    }

    @Test("2000 mutated PrimitiveBlocks inside valid framing only throw or succeed, and both happen")
    func mutatedPrimitiveBlock() {
        var random = SplitMix64(seed: 7)
        let header = SyntheticPBF.frame(type: "OSMHeader", blob: SyntheticPBF.rawBlob(SyntheticPBF.headerBlock()))
        let block = SyntheticPBF.dataBlock()
        var failures = 0, successes = 0
        for _ in 0..<2_000 {
            let data = SyntheticPBF.frame(
                type: "OSMData", blob: SyntheticPBF.rawBlob(Self.mutated(block, random: &random)))
            let outcome = OSMPBFReadOutcome(header + data)
            if outcome.error == nil { successes += 1 } else { failures += 1 }
        }
        #expect(failures > 0 && successes > 0)
    }

    @Test("200 mutations of the sample's framing and first zlib blob only throw or succeed")
    func mutatedSampleFraming() throws {
        var random = SplitMix64(seed: 2019)
        let firstBlobs = Array(try OSMPBFSample.bytes.prefix(OSMPBFErrorTests.blobOffsets[2]))
        var failures = 0
        for _ in 0..<200 {
            let outcome = OSMPBFReadOutcome(Self.mutated(firstBlobs, random: &random, in: 0..<140))
            if outcome.error != nil { failures += 1 }
        }
        #expect(failures > 0)
    }
}

import Foundation
import RoadMap
import Testing
import TestSupport
@testable import RoadMapImport

/// Outcome of reading a whole input: blocks read before the end or the first error.
struct OSMPBFReadOutcome: Equatable {
    var blocks = 0
    var elements = 0
    var error: OSMPBFError?

    init(_ bytes: [UInt8], threads: Int = 1) {
        do throws(OSMPBFError) {
            var reader = try OSMPBFReader(data: bytes, threads: threads)
            while let block = try reader.nextBlock() {
                blocks += 1
                elements += block.count
            }
        } catch {
            self.error = error
        }
    }
}

@Suite("OSM PBF errors")
struct OSMPBFErrorTests {
    /// Offsets of the sample's five blobs, from its BlobHeaders (13-byte headers; data sizes 81, 90741, 88342,
    /// 86025, 419836 — the same framing `osmium fileinfo -e` counts).
    static let blobOffsets = [0, 98, 90_856, 179_215, 265_257]

    static func temporaryFile(_ name: String, contents: [UInt8]) throws -> String {
        let url = ScratchDirectory.url("osmpbf-\(name)")
        try Data(contents).write(to: url)
        return url.path
    }

    @Test(
        "the sample cut inside any blob reports .truncated naming that blob and its offset",
        arguments: [2, 50, 100, 1_115, 90_858, 229_215, 685_109])
    func truncated(length: Int) throws {
        let sample = try OSMPBFSample.bytes
        let blob = Self.blobOffsets.lastIndex { $0 < length }!
        let outcome = OSMPBFReadOutcome(Array(sample.prefix(length)))
        #expect(outcome.error == .truncated(blob: blob, offset: Self.blobOffsets[blob]))
        #expect(outcome.blocks == max(blob - 1, 0))
    }

    @Test("the sample cut exactly between blobs is a valid, shorter file")
    func cutAtBlobBoundary() throws {
        let outcome = OSMPBFReadOutcome(Array(try OSMPBFSample.bytes.prefix(Self.blobOffsets[3])))
        #expect(outcome.error == nil)
        #expect(outcome.blocks == 2)
    }

    @Test("a truncated file read from disk reports the same error as from memory")
    func truncatedFile() throws {
        let path = try Self.temporaryFile("cut.osm.pbf", contents: Array(try OSMPBFSample.bytes.prefix(150_000)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = try OSMPBFReader(path: path)
        #expect(throws: OSMPBFError.truncated(blob: 2, offset: 90_856)) {
            while try reader.nextBlock() != nil {}
        }
    }

    @Test(
        "a flipped byte inside a zlib stream reports .corruptBlob for that blob",
        arguments: [60, 1_000, 40_000, 90_700])
    func flippedZlibByte(position: Int) throws {
        var bytes = try OSMPBFSample.bytes
        bytes[Self.blobOffsets[1] + 17 + position] ^= 0x5A
        let outcome = OSMPBFReadOutcome(bytes)
        guard case .corruptBlob(blob: 1, offset: 98, let reason)? = outcome.error else {
            Issue.record("expected corruptBlob for blob 1, got \(String(describing: outcome.error))")
            return
        }
        #expect(reason.contains("zlib"))
        #expect(outcome.blocks == 0)
    }

    @Test("an empty file, a text file and a file starting with a data blob are not PBF")
    func notPBF() throws {
        let empty = try Self.temporaryFile("empty.osm.pbf", contents: [])
        let text = try Self.temporaryFile("text.osm.pbf", contents: Array("<?xml version='1.0'?><osm></osm>\n".utf8))
        defer {
            try? FileManager.default.removeItem(atPath: empty)
            try? FileManager.default.removeItem(atPath: text)
        }
        #expect(throws: OSMPBFError.notPBF(empty)) { try OSMPBFReader(path: empty) }
        #expect(throws: OSMPBFError.notPBF(text)) { try OSMPBFReader(path: text) }
        #expect(throws: OSMPBFError.notPBF("in-memory data")) { try OSMPBFReader(data: []) }
        let dataFirst = SyntheticPBF.frame(type: "OSMData", blob: SyntheticPBF.rawBlob(SyntheticPBF.dataBlock()))
        #expect(throws: OSMPBFError.notPBF("in-memory data")) { try OSMPBFReader(data: dataFirst) }
    }

    @Test("a missing path and a directory cannot be opened, with errno")
    func cannotOpen() {
        #expect(throws: OSMPBFError.cannotOpen("/nonexistent/x.osm.pbf", errno: ENOENT)) {
            try OSMPBFReader(path: "/nonexistent/x.osm.pbf")
        }
        #expect(throws: OSMPBFError.cannotOpen("/tmp", errno: EISDIR)) { try OSMPBFReader(path: "/tmp") }
    }

    @Test("lzma and zstd blobs report .unsupportedCompression with blob and offset")
    func unsupportedCompression() {
        let header = SyntheticPBF.frame(type: "OSMHeader", blob: SyntheticPBF.rawBlob(SyntheticPBF.headerBlock()))
        for (field, kind) in [(UInt64(4), "lzma"), (7, "zstd")] {
            var blob = ProtobufTestWriter()
            blob.varintField(2, 100)
            blob.bytesField(field, [0x28, 0xB5, 0x2F, 0xFD, 0, 0])
            let outcome = OSMPBFReadOutcome(header + SyntheticPBF.frame(type: "OSMData", blob: blob.bytes))
            #expect(outcome.error == .unsupportedCompression(blob: 1, offset: header.count, kind: kind))
        }
    }

    @Test("a header requiring an unknown feature reports .missingRequiredFeature")
    func missingRequiredFeature() {
        let block = SyntheticPBF.headerBlock(features: ["OsmSchema-V0.6", "HistoricalInformation"])
        #expect(throws: OSMPBFError.missingRequiredFeature("HistoricalInformation")) {
            try OSMPBFReader(data: SyntheticPBF.frame(type: "OSMHeader", blob: SyntheticPBF.rawBlob(block)))
        }
    }

    @Test("blob header and blob sizes above the format's caps are corrupt, not allocated")
    func sizeCaps() {
        let header = SyntheticPBF.frame(type: "OSMHeader", blob: SyntheticPBF.rawBlob(SyntheticPBF.headerBlock()))
        let hugeHeader = header + [0x00, 0x01, 0x00, 0x01] + [UInt8](repeating: 0, count: 16)
        guard case .corruptBlob(blob: 1, offset: header.count, _)? = OSMPBFReadOutcome(hugeHeader).error else {
            Issue.record("a 65537-byte BlobHeader was not rejected")
            return
        }
        var blobHeader = ProtobufTestWriter()
        blobHeader.stringField(1, "OSMData")
        blobHeader.varintField(3, 33 * 1024 * 1024)
        let hugeBlob = header + [0, 0, 0, UInt8(blobHeader.bytes.count)] + blobHeader.bytes
        guard case .corruptBlob(blob: 1, offset: header.count, let reason)? = OSMPBFReadOutcome(hugeBlob).error else {
            Issue.record("a 33 MiB blob was not rejected")
            return
        }
        #expect(reason.contains("32 MiB"))
    }

    @Test("malformed PrimitiveBlocks report .corruptBlob with the reason")
    func malformedBlocks() {
        let header = SyntheticPBF.frame(type: "OSMHeader", blob: SyntheticPBF.rawBlob(SyntheticPBF.headerBlock()))
        var zeroGranularity = ProtobufTestWriter(bytes: SyntheticPBF.dataBlock())
        zeroGranularity.varintField(17, 0)
        var way = ProtobufTestWriter()
        way.varintField(1, 1)
        SyntheticPBF.packed(2, [1], into: &way)
        SyntheticPBF.packed(3, [99], into: &way)
        var group = ProtobufTestWriter()
        group.bytesField(3, way.bytes)
        var badIndex = ProtobufTestWriter()
        badIndex.bytesField(1, [0x0A, 0x00, 0x0A, 0x01, 0x61])
        badIndex.bytesField(2, group.bytes)
        for (block, expected) in [
            (zeroGranularity.bytes, "granularity 0"), (badIndex.bytes, "string index 99"),
            (Array(SyntheticPBF.dataBlock().dropLast(3)), "past the end"),
        ] {
            let outcome = OSMPBFReadOutcome(
                header + SyntheticPBF.frame(type: "OSMData", blob: SyntheticPBF.rawBlob(block)))
            guard case .corruptBlob(blob: 1, offset: header.count, let reason)? = outcome.error else {
                Issue.record("expected corruptBlob for \(expected), got \(String(describing: outcome.error))")
                continue
            }
            #expect(reason.contains(expected), "\(reason)")
        }
    }

    @Test("every description is one sentence naming blob and offset where it has them")
    func descriptions() {
        let truncated = OSMPBFError.truncated(blob: 12, offset: 884_211).description
        #expect(truncated.contains("blob 12") && truncated.contains("884211"))
        let corrupt = OSMPBFError.corruptBlob(blob: 3, offset: 77, reason: "zlib data is invalid").description
        #expect(corrupt.contains("blob 3") && corrupt.contains("77") && corrupt.contains("zlib data is invalid"))
        let errors: [OSMPBFError] = [
            .cannotOpen("a", errno: 2), .readFailed("a", offset: 1, errno: 5), .notPBF("a"),
            .truncated(blob: 1, offset: 2), .corruptBlob(blob: 1, offset: 2, reason: "r"),
            .unsupportedCompression(blob: 1, offset: 2, kind: "zstd"), .missingRequiredFeature("X"),
        ]
        for error in errors {
            #expect(error.description.hasSuffix("."))
            #expect(!error.description.dropLast().contains("\n"))
        }
    }
}

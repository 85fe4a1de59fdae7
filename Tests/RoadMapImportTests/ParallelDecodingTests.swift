import Foundation
import TestSupport
import Testing
import RoadMap
@testable import RoadMapImport

/// Blobs decoded on several threads must give exactly what one thread gives: the same blocks in
/// the same order, the same progress offsets and timestamp, the same errors after the same
/// blocks, and a byte-identical map file. The 3 × 3 tiled sample has 54 data blobs (each copy keeps
/// the sample's 4 node blocks, 1 way block and 1 relation block), so the batches (2 × threads
/// blobs: 4 and 8) wrap around many times and end part-full.
@Suite("PBF decoding on several threads", .serialized)
struct ParallelDecodingTests {
    /// The 3 × 3 tiled sample in a fresh directory (removed by the caller).
    static func tiledExtract() throws -> (directory: URL, path: String) {
        let directory = ScratchDirectory.url("parallel")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tiled = directory.appendingPathComponent("helsinki-3x3.osm.pbf").path
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", Repository.url("Tools/make-tiled-extract").path, OSMPBFSample.path, "3", tiled])
        try #require(result.status == 0, "make-tiled-extract failed: \(result.stderr)")
        return (directory, tiled)
    }

    /// Every block with the reader's offset and timestamp after it.
    static func read(_ path: String, threads: Int) throws -> [(elements: [OSMElement], offset: Int, newest: Int64?)] {
        var reader = try OSMPBFReader(path: path, threads: threads)
        var blocks: [(elements: [OSMElement], offset: Int, newest: Int64?)] = []
        while let block = try reader.nextBlock() {
            blocks.append((block, reader.bytesRead, reader.newestElementTimestamp))
        }
        #expect(reader.bytesRead == reader.totalBytes)
        return blocks
    }

    @Test("2 and 4 threads read the same blocks, offsets and timestamps as one thread")
    func sameBlocks() throws {
        let (directory, tiled) = try Self.tiledExtract()
        defer { try? FileManager.default.removeItem(at: directory) }
        let serial = try Self.read(tiled, threads: 1)
        #expect(serial.count == 9 * 6)
        #expect(serial.reduce(0) { $0 + $1.elements.count } == 9 * (24_260 + 5_130 + 620))
        for threads in [2, 4] {
            let parallel = try Self.read(tiled, threads: threads)
            try #require(parallel.count == serial.count)
            for (index, (one, other)) in zip(serial, parallel).enumerated() {
                #expect(one.elements == other.elements, "block \(index), \(threads) threads")
                #expect(one.offset == other.offset && one.newest == other.newest, "block \(index), \(threads) threads")
            }
        }
    }

    @Test("the map imported with 2 decoding threads is byte-identical to the one imported with 1")
    func sameMapFile() throws {
        let (directory, tiled) = try Self.tiledExtract()
        defer { try? FileManager.default.removeItem(at: directory) }
        let options = RoadGraphOptions(country: try Country(alpha2: "FI"))
        let serialPath = directory.appendingPathComponent("serial.map").path
        let parallelPath = directory.appendingPathComponent("parallel.map").path
        let serial = try MapImport.run(input: tiled, output: serialPath, options: options, decodingThreads: 1)
        let parallel = try MapImport.run(input: tiled, output: parallelPath, options: options, decodingThreads: 2)
        #expect(serial == parallel)
        #expect(serial.importReport.links == 9 * 998)
        let serialBytes = try Data(contentsOf: URL(fileURLWithPath: serialPath))
        #expect(serialBytes == (try Data(contentsOf: URL(fileURLWithPath: parallelPath))))
    }

    @Test(
        "a damaged file fails after the same blocks with the same error on 1, 2 and 3 threads",
        arguments: [150_000, 265_300, 400_000, -60, -1_000, -40_000, -200_000])
    func sameErrors(damage: Int) throws {
        var bytes = try OSMPBFSample.bytes
        // Positive: cut the file there; negative: flip a byte that far into the last blob's data.
        if damage > 0 {
            bytes = Array(bytes.prefix(damage))
        } else {
            bytes[OSMPBFErrorTests.blobOffsets[4] + 17 - damage] ^= 0x5A
        }
        let serial = OSMPBFReadOutcome(bytes, threads: 1)
        #expect(serial.error != nil)
        for threads in [2, 3] {
            #expect(OSMPBFReadOutcome(bytes, threads: threads) == serial, "\(threads) threads")
        }
    }
}

import Foundation
import RoadMap
import Testing
@testable import RoadMapImport
import TestSupport

/// The sample extract shipped with the project (central Helsinki, 2019, © OpenStreetMap contributors, ODbL).
enum OSMPBFSample {
    static let path = Repository.url("Data/helsinki.osm.pbf").path

    static var bytes: [UInt8] { get throws { Array(try Data(contentsOf: URL(fileURLWithPath: path))) } }
}

@Suite("OSM PBF header")
struct OSMPBFHeaderTests {
    // Expected values from `osmium fileinfo -e Data/helsinki.osm.pbf`:
    //   Bounding boxes: (24.9351762,60.164155,24.9534145,60.179113), generator=0.47, pbf_dense_nodes=true
    @Test("the sample's header has the bounding box around central Helsinki that osmium reports")
    func sampleHeader() throws {
        let reader = try OSMPBFReader(path: OSMPBFSample.path)
        let box = try #require(reader.header.boundingBox)
        #expect(abs(box.minLatitude - 60.164155) < 1e-7)
        #expect(abs(box.maxLatitude - 60.179113) < 1e-7)
        #expect(abs(box.minLongitude - 24.9351762) < 1e-7)
        #expect(abs(box.maxLongitude - 24.9534145) < 1e-7)
        #expect(reader.header.requiredFeatures.contains("OsmSchema-V0.6"))
        #expect(reader.header.requiredFeatures.contains("DenseNodes"))
        #expect(reader.header.writingProgram == "0.47")
        #expect(reader.totalBytes == 685_110)
        #expect(reader.bytesRead == 98)
    }

    @Test("reading from memory gives the same header as reading the file")
    func memoryEqualsFile() throws {
        let fromFile = try OSMPBFReader(path: OSMPBFSample.path)
        let fromMemory = try OSMPBFReader(data: try OSMPBFSample.bytes)
        #expect(fromFile.header == fromMemory.header)
    }
}

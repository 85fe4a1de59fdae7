import Foundation
import OpenLR
import RoadMap
import RoadMapStore
import TestSupport
import Testing

@Suite struct SampleMapDecodingTests {
    /// References encoded from 1000 random paths on the sample map (seeded), written to base64
    /// and read back, decode to the same directed links in at least 99 % of cases.
    @Test func referencesFromSampleMapPathsDecodeToTheSameLinks() throws {
        let map = try SampleMap.map()
        let links = try SampleMap.links(of: map)
        let encoder = LineLocationEncoder(network: map)
        let decoder = LineLocationDecoder(network: map)
        var random = SplitMix64(seed: 2026)
        var total = 0, same = 0, multiPoint = 0
        var failures: [String] = []
        while total < 1000 {
            guard let path = try SampleMap.randomPath(on: map, links: links, maximumLinks: 16, using: &random) else {
                continue
            }
            total += 1
            let reference = try encoder.encode(path)
            if reference.points.count > 2 { multiPoint += 1 }
            let text = try OpenLRBinary.encode(reference)
            do {
                let decoded = try decoder.decode(try OpenLRBinary.decode(base64: text))
                if decoded.links == path { same += 1 } else { failures.append("\(path) → \(decoded.links)") }
            } catch {
                failures.append("\(path): \(error)")
            }
        }
        let share = Double(same) / Double(total)
        print("OpenLR round trip on the sample map: \(same)/\(total) (\(share * 100) %), \(multiPoint) with > 2 points")
        for failure in failures.prefix(10) { print("  differs: \(failure)") }
        #expect(share >= 0.99)
        #expect(multiPoint >= 10)  // the paths exercise intermediate points, not only two-point references
    }

    /// Offsets survive the round trip to within the coding's resolution (1/256 of a segment).
    @Test func offsetsComeBackWithinTheirResolution() throws {
        let map = try SampleMap.map()
        let links = try SampleMap.links(of: map)
        var random = SplitMix64(seed: 7)
        var checked = 0
        while checked < 100 {
            guard let path = try SampleMap.randomPath(on: map, links: links, maximumLinks: 6, using: &random),
                let first = try? map.link(path[0].link), let last = try? map.link(path[path.count - 1].link),
                first.length > 20, last.length > 20
            else { continue }
            checked += 1
            let start = first.length * 0.4, end = last.length * 0.3
            let reference = try LineLocationEncoder(network: map).encode(path, startOffset: start, endOffset: end)
            let decoded = try LineLocationDecoder(network: map).decode(
                try OpenLRBinary.decode(base64: try OpenLRBinary.encode(reference)))
            #expect(decoded.links == path)
            #expect(abs(decoded.startOffset - start) <= reference.points[0].distanceToNextPoint / 256 + 2)
            #expect(
                abs(decoded.endOffset - end) <= reference.points[reference.points.count - 2].distanceToNextPoint / 256
                    + 2)
        }
    }

    /// A reference whose points lie away from every road of the map gets a clear error.
    @Test func aReferenceOffTheMapNamesThePoint() throws {
        let map = try SampleMap.map()
        var reference = try OpenLRBinary.decode(bytes: OpenLRBinaryTests.whitepaperExample)  // Luxembourg
        reference.positiveOffset = 0
        #expect(
            throws: OpenLRDecodingError.noCandidates(
                point: 0, latitude: reference.points[0].coordinate.latitude,
                longitude: reference.points[0].coordinate.longitude)
        ) {
            try LineLocationDecoder(network: map).decode(reference)
        }
    }
}

import Foundation
import RoadMap
import Testing
import TestSupport

@testable import RoadMapImport

/// The import's memory savings change no result: the tags it drops, the in-place reordering and
/// the one-pass camera snapping give what the full data did, on the sample extract.
@Suite("import memory savings")
struct ImportMemoryTests {
    static let samplePath = Repository.url("Data/helsinki.osm.pbf").path

    @Test("every road way of the sample gets the same attributes from its kept tags as from all its tags")
    func keptTagsGiveTheSameAttributes() throws {
        let selection = RoadSelection()
        let legalDefaults = try LegalDefaultSpeeds.bundled()
        var reader = try OSMPBFReader(path: Self.samplePath, threads: 1)
        var compared = 0, dropped = 0
        while let block = try reader.nextBlock() {
            for case .way(let way) in block {
                guard let highway = selection.highwayClass(for: way.tags) else { continue }
                let kept = WayAttributes.keptTags(way.tags)
                dropped += way.tags.count - kept.count
                for country in ["FI", "DE"] {
                    for area in AreaAssumption.allCases {
                        let full = WayAttributes(
                            highway: highway, tags: way.tags, country: country, legalDefaults: legalDefaults,
                            unknownArea: area)
                        let fromKept = WayAttributes(
                            highway: highway, tags: kept, country: country, legalDefaults: legalDefaults,
                            unknownArea: area)
                        #expect(full == fromKept, "way \(way.id) (\(country), \(area))")
                    }
                }
                #expect(kept["dual_carriageway"] == way.tags["dual_carriageway"], "way \(way.id)")
                compared += 1
            }
        }
        #expect(compared > 900)  // 911 road ways in the sample
        // The point of keeping fewer: most of a road way's tags are not read.
        #expect(dropped > compared)
    }

    @Test("reordering in place gives what a reordered copy gives, for any permutation")
    func permutationInPlace() {
        var generator = SplitMix64(seed: 12)
        for count in [0, 1, 2, 3, 10, 257] {
            for _ in 0..<20 {
                let order = Array(0..<count).shuffled(using: &generator)
                var array = (0..<count).map { "element \($0)" }
                let expected = order.map { array[$0] }
                var placed = [Bool](repeating: false, count: count)
                RoadGraphBuilder.permute(&array, by: order, placed: &placed)
                #expect(array == expected)
            }
        }
    }

    @Test("the one-pass snapping finds the nearest link a brute-force search finds, ties to the lower index")
    func nearestLinkMatchesBruteForce() throws {
        var builder = RoadGraphBuilder(
            options: RoadGraphOptions(country: try Country(alpha2: "FI")),
            legalDefaults: try LegalDefaultSpeeds.bundled())
        var reader = try OSMPBFReader(path: Self.samplePath, threads: 1)
        while let block = try reader.nextBlock() { builder.add(block) }
        let links = builder.build().links
        var generator = SplitMix64(seed: 7)
        let south = links.flatMap(\.geometry).map(\.latitude).min()!
        let north = links.flatMap(\.geometry).map(\.latitude).max()!
        let west = links.flatMap(\.geometry).map(\.longitude).min()!
        let east = links.flatMap(\.geometry).map(\.longitude).max()!
        // Random points, and points exactly on link vertices (equal distances to the links meeting there).
        var points: [(id: Int64, point: GeoPoint)] = (0..<300).map { id in
            (
                Int64(id),
                GeoPoint(
                    latitude: Double.random(in: south...north, using: &generator),
                    longitude: Double.random(in: west...east, using: &generator))
            )
        }
        for id in 0..<100 {
            points.append((Int64(1000 + id), links[Int.random(in: 0..<links.count, using: &generator)].geometry[0]))
        }
        for radius in [5.0, 30, 200] {
            let found = NearestLink.find(for: points, among: links, within: radius)
            var hits = 0
            for (id, point) in points {
                var best: (link: Int, distance: Double)?
                for (index, link) in links.enumerated() {
                    guard let projection = link.geometry.project(point), projection.distance <= radius else { continue }
                    if best == nil || projection.distance < best!.distance { best = (index, projection.distance) }
                }
                #expect(found[id]?.link == best?.link, "point \(id), radius \(radius)")
                #expect(found[id]?.projection.distance == best?.distance, "point \(id), radius \(radius)")
                if best != nil { hits += 1 }
            }
            #expect(hits >= 100)
        }
    }
}

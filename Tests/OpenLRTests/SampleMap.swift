import Foundation
import RoadMap
import RoadMapImport
import RoadMapStore
import TestSupport

/// The sample map (Data/helsinki.osm.pbf), imported once per test process, and random drivable
/// paths on it.
enum SampleMap {
    static let path: Result<String, Error> = Result { try ImportedMap.file("Data/helsinki.osm.pbf") }

    static func map() throws -> MapFile { try MapFile(path: try path.get()) }

    /// Every link of `map`, sorted by identifier.
    static func links(of map: MapFile) throws -> [RoadLink] {
        var links: [RoadLink] = []
        for key in try map.tileKeys() { links += try map.tile(key).links }
        return links.sorted { $0.id < $1.id }
    }

    /// A random path of up to `maximumLinks` links without U-turns or repeated links: a random
    /// start, then a random legal successor at each junction (nil when the start is a dead end).
    static func randomPath(
        on map: MapFile, links: [RoadLink], maximumLinks: Int, using random: inout SplitMix64
    ) throws -> [DirectedLink]? {
        let start = links[random.below(links.count)]
        let directions = [LinkDirection.forward, .backward].filter { start.oneway.allows($0) }
        var path = [DirectedLink(start.id, directions[random.below(directions.count)])]
        var used: Set<LinkID> = [start.id]
        let count = 2 + random.below(maximumLinks - 1)
        while path.count < count {
            let next = try map.successors(of: path[path.count - 1]).filter { !used.contains($0.link) }
            if next.isEmpty { break }
            let chosen = next[random.below(next.count)]
            path.append(chosen)
            used.insert(chosen.link)
        }
        return path.count >= 2 ? path : nil
    }
}

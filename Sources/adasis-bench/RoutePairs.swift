import ArgumentParser
import Foundation
import RoadMap
import RoadMapStore

/// An origin–destination pair for the route benchmark.
struct RoutePair {
    /// Where the route starts.
    var origin: GeoPoint
    /// Where it ends.
    var destination: GeoPoint

    /// Straight-line metres between origin and destination.
    var distance: Double { origin.distance(to: destination) }
}

/// Ways of getting origin–destination pairs: seeded random points on the map's roads, or a CSV.
enum RoutePairs {
    /// `count` pairs of points on drivable links of `map`, each pair at least `minimumDistance`
    /// metres apart in a straight line. A point is a uniformly random position on the map's
    /// drivable road length: a link drawn with probability proportional to its length (only links
    /// a car may drive in at least one direction), then a uniformly random offset along it. The
    /// same map and seed give the same pairs.
    static func random(count: Int, on map: MapFile, seed: UInt64, minimumDistance: Double) throws -> [RoutePair] {
        var links: [RoadLink] = []
        for key in try map.tileKeys() {
            links += try map.tile(key).links.filter {
                $0.length > 0 && ($0.oneway.allows(.forward) || $0.oneway.allows(.backward))
            }
        }
        links.sort { $0.id < $1.id }
        guard !links.isEmpty else { throw ValidationError("the map has no drivable links") }
        var cumulative: [Double] = []
        var total = 0.0
        for link in links {
            total += link.length
            cumulative.append(total)
        }
        var random = SplitMix64(state: seed)
        func point() -> GeoPoint {
            let along = Double.random(in: 0..<total, using: &random)
            var low = 0, high = cumulative.count - 1
            while low < high {  // the first link whose cumulative length exceeds `along`
                let middle = (low + high) / 2
                if cumulative[middle] > along { high = middle } else { low = middle + 1 }
            }
            let link = links[low]
            let offset = Double.random(in: 0...link.length, using: &random)
            return link.geometry.point(atOffset: offset)?.point ?? link.geometry[0]
        }
        var pairs: [RoutePair] = []
        var attempts = 0
        while pairs.count < count {
            attempts += 1
            if attempts > 1000 * max(count, 1) {
                throw ValidationError(
                    "found only \(pairs.count) of \(count) pairs at least \(Int(minimumDistance)) m apart in \(attempts - 1) draws: is the map smaller than --min-distance?"
                )
            }
            let pair = RoutePair(origin: point(), destination: point())
            if pair.distance >= minimumDistance { pairs.append(pair) }
        }
        return pairs
    }

    /// Pairs from a CSV file with one pair per line: `from_lat,from_lon,to_lat,to_lon` in decimal
    /// degrees. A first line that is not numbers (a header), blank lines and `#` lines are skipped.
    static func read(csv path: String) throws -> [RoutePair] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read '\(path)': no such file or not readable")
        }
        var pairs: [RoutePair] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty || text.hasPrefix("#") { continue }
            let fields = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            if index == 0, fields.contains(where: { $0 == nil }) { continue }  // header
            guard fields.count == 4, let values = fields as? [Double], values.allSatisfy(\.isFinite),
                abs(values[0]) <= 90, abs(values[2]) <= 90, abs(values[1]) <= 180, abs(values[3]) <= 180
            else {
                throw ValidationError(
                    "\(path):\(index + 1): expected from_lat,from_lon,to_lat,to_lon in decimal degrees, got '\(text)'")
            }
            pairs.append(
                RoutePair(
                    origin: GeoPoint(latitude: values[0], longitude: values[1]),
                    destination: GeoPoint(latitude: values[2], longitude: values[3])))
        }
        guard !pairs.isEmpty else { throw ValidationError("\(path): no pairs") }
        return pairs
    }
}

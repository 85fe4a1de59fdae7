import RoadMap

/// Why a path of our map could not be written as a line location reference.
public enum OpenLREncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No links.
    case emptyPath
    /// Link `index + 1` does not follow link `index` (not a successor on the map).
    case disconnected(at: Int)
    /// An offset is negative or covers its whole link.
    case offsetOutsideLink(Double)
    /// The map could not be read.
    case mapUnreadable(String)

    public var description: String {
        switch self {
        case .emptyPath: return "the path has no links"
        case .disconnected(let i): return "link \(i + 2) of the path does not follow link \(i + 1)"
        case .offsetOutsideLink(let o): return "offset \(o) m is not within its link"
        case .mapUnreadable(let reason): return "map read failed: \(reason)"
        }
    }
}

/// Writes a path of directed links as an OpenLR line location reference (whitepaper v1.5, §8):
/// a point at the path's start and end, and one more wherever the shortest path from the last
/// point would leave the path or the distance would exceed what one DNP byte codes.
public struct LineLocationEncoder {
    /// The map the path is on.
    public let network: any RoadNetwork
    /// The bearing window, as in the decoder.
    public let bearingDistance: Double

    /// Creates an encoder for paths on `network`.
    public init(network: any RoadNetwork, bearingDistance: Double = DecoderParameters().bearingDistance) {
        self.network = network
        self.bearingDistance = bearingDistance
    }

    /// The reference for `links` (driving order), minus `startOffset` metres of the first link and
    /// `endOffset` metres of the last.
    public func encode(
        _ path: [DirectedLink], startOffset: Double = 0, endOffset: Double = 0
    ) throws(OpenLREncodingError) -> LineLocationReference {
        do {
            return try encodeOrThrow(path, startOffset: startOffset, endOffset: endOffset)
        } catch let error as OpenLREncodingError {
            throw error
        } catch {
            throw .mapUnreadable("\(error)")
        }
    }

    private func encodeOrThrow(_ path: [DirectedLink], startOffset: Double, endOffset: Double) throws
        -> LineLocationReference
    {
        guard !path.isEmpty else { throw OpenLREncodingError.emptyPath }
        let links = try path.map { try network.link($0.link) }
        for i in 1..<max(1, path.count) where !(try network.successors(of: path[i - 1]).contains(path[i])) {
            throw OpenLREncodingError.disconnected(at: i - 1)
        }
        for (offset, link) in [(startOffset, links[0]), (endOffset, links[links.count - 1])]
        where !(offset >= 0 && offset < link.length) {
            throw OpenLREncodingError.offsetOutsideLink(offset)
        }
        // Indices of the links at whose start a point lies.
        var pointStarts = [0]
        var i = 0
        while i < path.count {
            var remaining = 0.0
            for k in i..<path.count { remaining += links[k].length }
            let bound = min(OpenLRBinary.maximumDistanceToNextPoint - 1, remaining) + 1
            let search = try PathSearch(
                network: network, from: Candidate(link: path[i], offset: 0, length: links[i].length, score: 1),
                maximumLength: bound, lowestClass: 7)
            // The segment from link i ends at the point after link j: the start of link j + 1,
            // or the end of the path. It holds while the shortest path to that point is the path.
            var j = i
            var length = links[i].length
            while j + 1 < path.count {
                let next = j + 1
                let isLast = next == path.count - 1
                let endLength = length + links[next].length
                guard endLength < OpenLRBinary.maximumDistanceToNextPoint - 1 else { break }
                let target: Candidate
                let expected: [DirectedLink]
                if isLast {
                    target = Candidate(
                        link: path[next], offset: links[next].length, length: links[next].length, score: 1)
                    expected = Array(path[i...next])
                } else {
                    target = Candidate(link: path[next + 1], offset: 0, length: links[next + 1].length, score: 1)
                    expected = Array(path[i...(next + 1)])
                }
                guard let found = search.path(to: target), found.links == expected else { break }
                j = next
                length = endLength
            }
            if j == path.count - 1 { break }
            pointStarts.append(j + 1)
            i = j + 1
        }
        var points: [LocationReferencePoint] = []
        for (n, start) in pointStarts.enumerated() {
            let end = n + 1 < pointStarts.count ? pointStarts[n + 1] : path.count
            let segment = links[start..<end]
            let link = links[start]
            points.append(
                LocationReferencePoint(
                    coordinate: link.travelGeometry(path[start].direction)[0],
                    bearingSector: OpenLRBinary.bearingSector(
                        link.openLRBearing(path[start].direction, at: 0, distance: bearingDistance, backward: false)),
                    functionalRoadClass: link.openLRFunctionalRoadClass, formOfWay: OpenLRFormOfWay(link.formOfWay),
                    lowestFRCToNextPoint: segment.map(\.openLRFunctionalRoadClass).max()!,
                    distanceToNextPoint: segment.reduce(0) { $0 + $1.length }))
        }
        let last = links[links.count - 1], lastDirection = path[path.count - 1].direction
        points.append(
            LocationReferencePoint(
                coordinate: last.travelGeometry(lastDirection).last!,
                bearingSector: OpenLRBinary.bearingSector(
                    last.openLRBearing(lastDirection, at: last.length, distance: bearingDistance, backward: true)),
                functionalRoadClass: last.openLRFunctionalRoadClass, formOfWay: OpenLRFormOfWay(last.formOfWay),
                lowestFRCToNextPoint: nil, distanceToNextPoint: 0))
        let firstSegment = points[0].distanceToNextPoint
        let lastSegment = points[points.count - 2].distanceToNextPoint
        return LineLocationReference(
            points: points, positiveOffset: min(255.0 / 256, startOffset / firstSegment),
            negativeOffset: min(255.0 / 256, endOffset / lastSegment))
    }
}

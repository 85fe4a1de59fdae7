import RoadMap

/// A line location on our map: directed links in driving order, trimmed by offsets.
public struct DecodedLine: Hashable, Sendable {
    /// The directed links, in driving order.
    public var links: [DirectedLink]
    /// Metres of the first link (from its entry) that are not part of the location.
    public var startOffset: Double
    /// Metres of the last link (before its exit) that are not part of the location.
    public var endOffset: Double
    /// The location's length in metres.
    public var length: Double

    /// Creates a decoded line.
    public init(links: [DirectedLink], startOffset: Double, endOffset: Double, length: Double) {
        self.links = links
        self.startOffset = startOffset
        self.endOffset = endOffset
        self.length = length
    }
}

/// Why a line location reference could not be placed on the map.
public enum OpenLRDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No link near point `index` matches its bearing, class and form of way: the reference is
    /// off this map or names a road the map lacks.
    case noCandidates(point: Int, latitude: Double, longitude: Double)
    /// No path between points `index` and `index + 1` has about the coded length.
    case noPath(fromPoint: Int, distanceToNextPoint: Double)
    /// The map could not be read.
    case mapUnreadable(String)

    public var description: String {
        switch self {
        case .noCandidates(let i, let lat, let lon):
            return "no road on the map near point \(i + 1) (\(lat), \(lon)) with its bearing, class and form of way"
        case .noPath(let i, let dnp):
            return "no path of about \(Int(dnp)) m from point \(i + 1) to point \(i + 2)"
        case .mapUnreadable(let reason): return "map read failed: \(reason)"
        }
    }
}

/// A best chain of candidates up to one candidate of a point.
private struct Chain: Equatable {
    var score: Double
    var previous: Int?
    var links: [DirectedLink]
    var length: Double
}

/// Decodes OpenLR line locations onto a road network (whitepaper v1.5, §9): candidates per point
/// by distance, bearing, FRC and FOW; the shortest path between consecutive points, checked
/// against the coded distance; then the offsets.
public struct LineLocationDecoder {
    /// The map.
    public let network: any RoadNetwork
    /// Tolerances and weights.
    public let parameters: DecoderParameters

    /// Creates a decoder for `network`.
    public init(network: any RoadNetwork, parameters: DecoderParameters = DecoderParameters()) {
        self.network = network
        self.parameters = parameters
    }

    /// Places `reference` on the map.
    public func decode(_ reference: LineLocationReference) throws(OpenLRDecodingError) -> DecodedLine {
        do {
            return try decodeOrThrow(reference)
        } catch let error as OpenLRDecodingError {
            throw error
        } catch {
            throw .mapUnreadable("\(error)")
        }
    }

    private func decodeOrThrow(_ reference: LineLocationReference) throws -> DecodedLine {
        let points = reference.points
        var candidateLists: [[Candidate]] = []
        for index in points.indices {
            let list = try candidates(for: index, of: points)
            if list.isEmpty {
                let c = points[index].coordinate
                throw OpenLRDecodingError.noCandidates(point: index, latitude: c.latitude, longitude: c.longitude)
            }
            candidateLists.append(list)
        }
        // The best chain of candidates, one per point (a Viterbi search): each step is a
        // shortest path whose length is about the coded distance; a chain's score is its
        // candidates' scores less the length deviations beyond half a DNP interval.
        var chains: [[Chain?]] = [candidateLists[0].map { Chain(score: $0.score, previous: nil, links: [], length: 0) }]
        for index in 0..<(points.count - 1) {
            let point = points[index]
            let tolerance =
                parameters.absoluteLengthTolerance + parameters.relativeLengthTolerance * point.distanceToNextPoint
            let lowest = min(7, (point.lowestFRCToNextPoint ?? 7) + parameters.classTolerance)
            var next = [Chain?](repeating: nil, count: candidateLists[index + 1].count)
            for (a, start) in candidateLists[index].enumerated() {
                guard let chain = chains[index][a] else { continue }
                let search = try PathSearch(
                    network: network, from: start, maximumLength: point.distanceToNextPoint + tolerance,
                    lowestClass: lowest)
                for (b, end) in candidateLists[index + 1].enumerated() {
                    guard let path = search.path(to: end),
                        abs(path.length - point.distanceToNextPoint) <= tolerance
                    else { continue }
                    // Within half a DNP interval the coded distance cannot tell paths apart.
                    let deviation = max(
                        0, abs(path.length - point.distanceToNextPoint) - OpenLRBinary.distanceInterval / 2)
                    let score = chain.score + end.score - deviation / tolerance
                    if next[b] == nil || score > next[b]!.score {
                        next[b] = Chain(score: score, previous: a, links: path.links, length: path.length)
                    }
                }
            }
            if next.allSatisfy({ $0 == nil }) {
                throw OpenLRDecodingError.noPath(fromPoint: index, distanceToNextPoint: point.distanceToNextPoint)
            }
            chains.append(next)
        }
        var chosen = chains[chains.count - 1].indices.filter { chains[chains.count - 1][$0] != nil }
            .max { chains[chains.count - 1][$0]!.score < chains[chains.count - 1][$1]!.score }!
        let lastEnd = candidateLists[points.count - 1][chosen]
        var segments: [Chain] = []
        for index in stride(from: points.count - 1, through: 1, by: -1) {
            let chain = chains[index][chosen]!
            segments.append(chain)
            chosen = chain.previous!
        }
        segments.reverse()
        let firstStart = candidateLists[0][chosen]
        var links: [DirectedLink] = []
        for segment in segments {
            links += links.last == segment.links.first ? segment.links.dropFirst() : segment.links[...]
        }
        let segmentLengths = segments.map(\.length)
        let first = firstStart, last = lastEnd
        var startOffset = first.offset + reference.positiveOffset * segmentLengths[0]
        var endOffset =
            (last.length - last.offset) + reference.negativeOffset * segmentLengths[segmentLengths.count - 1]
        var lengths = try links.map { try network.link($0.link).length }
        let slack = 0.5
        while links.count > 1, startOffset >= lengths[0] - slack {
            startOffset = max(0, startOffset - lengths[0])
            links.removeFirst()
            lengths.removeFirst()
        }
        while links.count > 1, endOffset >= lengths[lengths.count - 1] - slack {
            endOffset = max(0, endOffset - lengths[lengths.count - 1])
            links.removeLast()
            lengths.removeLast()
        }
        let length = max(0, lengths.reduce(0, +) - startOffset - endOffset)
        return DecodedLine(links: links, startOffset: startOffset, endOffset: endOffset, length: length)
    }
}

import Foundation
import RoadMap

/// Why a custom object could not be matched to the road graph.
public enum CustomObjectMatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No road within `radius` metres of the point.
    case noRoadNear(GeoPoint, radius: Double)
    /// Position `index` of the line has no road within `radius` metres.
    case lineLeavesRoad(index: Int, GeoPoint, radius: Double)
    /// The line goes from one link to another that does not meet it, near `point`.
    case lineNotConnected(from: LinkID, to: LinkID, near: GeoPoint)
    /// No road runs inside the polygon.
    case noRoadInside
    /// The map could not be read.
    case mapUnreadable(String)

    public var description: String {
        func at(_ point: GeoPoint) -> String { String(format: "(%.6f, %.6f)", point.latitude, point.longitude) }
        switch self {
        case .noRoadNear(let point, let radius):
            return "no road within \(Int(radius)) m of the point \(at(point)); move it onto a road"
        case .lineLeavesRoad(let index, let point, let radius):
            return "position \(index) of the line \(at(point)) is more than \(Int(radius)) m from any road; "
                + "draw the line along the road"
        case .lineNotConnected(let from, let to, let point):
            return "the line jumps from \(from) to \(to) near \(at(point)), which do not meet; draw it along the road"
        case .noRoadInside:
            return "no road runs inside the polygon; draw it over the road it is about"
        case .mapUnreadable(let reason):
            return "the map could not be read: \(reason)"
        }
    }
}

/// Matches custom objects to the road graph: a point to the nearest link (both directions, or
/// the one its heading names), a line to the stretch of links it follows (in its direction), a
/// polygon to every part of a link inside it (both directions).
public struct CustomObjectMatcher {
    /// The road graph.
    public let network: any RoadNetwork
    /// How far a point or line position may lie from the road, metres.
    public var radius: Double = 30
    /// Spacing of the samples along lines and links, metres.
    public var step: Double = 2

    /// A matcher on `network`.
    public init(network: any RoadNetwork) { self.network = network }

    /// Where `object` lies on the road graph, by link.
    public func match(_ object: CustomObject) throws(CustomObjectMatchError) -> [CustomObjectPiece] {
        switch object.geometry {
        case .point(let point): return [try matchPoint(point, heading: object.heading)]
        case .line(let line): return try matchLine(line)
        case .polygon(let ring): return try matchPolygon(ring)
        }
    }

    private func nearest(_ point: GeoPoint) throws(CustomObjectMatchError) -> (RoadLink, PolylineProjection)? {
        let candidates: [RoadLink]
        do { candidates = try network.links(near: point, radius: radius) } catch {
            throw .mapUnreadable("\(error)")
        }
        return
            candidates
            .compactMap { link in link.geometry.project(point).map { (link, $0) } }
            .filter { $0.1.distance <= radius }
            .min { ($0.1.distance, $0.0.id) < ($1.1.distance, $1.0.id) }
    }

    private func matchPoint(_ point: GeoPoint, heading: Double?) throws(CustomObjectMatchError) -> CustomObjectPiece {
        guard let (link, projection) = try nearest(point) else { throw .noRoadNear(point, radius: radius) }
        var direction: LinkDirection?
        if let heading {
            let difference = abs((heading - projection.bearing).truncatingRemainder(dividingBy: 360))
            direction = min(difference, 360 - difference) <= 90 ? .forward : .backward
        }
        return CustomObjectPiece(link: link.id, direction: direction, start: projection.offset, end: projection.offset)
    }

    private func matchLine(_ line: [GeoPoint]) throws(CustomObjectMatchError) -> [CustomObjectPiece] {
        // Samples along the line, each on its nearest link; runs of samples on one link.
        var runs: [(link: RoadLink, offsets: [Double], point: GeoPoint)] = []
        let length = line.polylineLength
        let count = max(1, Int((length / step).rounded(.up)))
        for sample in 0...count {
            guard let point = line.point(atOffset: length * Double(sample) / Double(count))?.point else { continue }
            guard let (link, projection) = try nearest(point) else {
                let index = line.indices.min { line[$0].distance(to: point) < line[$1].distance(to: point) } ?? 0
                throw .lineLeavesRoad(index: index, line[index], radius: radius)
            }
            if let last = runs.last, last.link.id == link.id {
                runs[runs.count - 1].offsets.append(projection.offset)
            } else {
                runs.append((link, [projection.offset], point))
            }
        }
        // A lone sample on a crossing road at a junction is noise between two runs that meet.
        runs = runs.enumerated().filter { index, run in
            !(run.offsets.count == 1 && index > 0 && index < runs.count - 1)
        }.map(\.element)
        var merged: [(link: RoadLink, offsets: [Double], point: GeoPoint)] = []
        for run in runs {
            if let last = merged.last, last.link.id == run.link.id {
                merged[merged.count - 1].offsets += run.offsets
            } else {
                merged.append(run)
            }
        }
        var pieces: [CustomObjectPiece] = []
        var directions: [LinkDirection] = []
        for (index, run) in merged.enumerated() {
            let direction: LinkDirection
            if run.offsets.count > 1 {
                direction = run.offsets.last! >= run.offsets.first! ? .forward : .backward
            } else if index + 1 < merged.count {
                direction =
                    [merged[index + 1].link.startNode, merged[index + 1].link.endNode].contains(run.link.endNode)
                    ? .forward : .backward
            } else if index > 0 {
                direction =
                    [merged[index - 1].link.startNode, merged[index - 1].link.endNode].contains(
                        run.link.startNode) ? .forward : .backward
            } else {
                direction = .forward
            }
            directions.append(direction)
            let entry = direction == .forward ? 0 : run.link.length
            let exit = direction == .forward ? run.link.length : 0
            let first = index == 0 ? run.offsets.first! : entry
            let last = index == merged.count - 1 ? run.offsets.last! : exit
            pieces.append(
                CustomObjectPiece(
                    link: run.link.id, direction: direction, start: min(first, last), end: max(first, last)))
            if index > 0 {
                let previous = merged[index - 1].link
                let previousExit = directions[index - 1] == .forward ? previous.endNode : previous.startNode
                let entryNode = direction == .forward ? run.link.startNode : run.link.endNode
                guard previousExit == entryNode else {
                    throw .lineNotConnected(from: previous.id, to: run.link.id, near: run.point)
                }
            }
        }
        return pieces
    }

    private func matchPolygon(_ ring: [GeoPoint]) throws(CustomObjectMatchError) -> [CustomObjectPiece] {
        let centre = GeoPoint(
            latitude: ring.map(\.latitude).reduce(0, +) / Double(ring.count),
            longitude: ring.map(\.longitude).reduce(0, +) / Double(ring.count))
        let reach = (ring.map { centre.distance(to: $0) }.max() ?? 0) + 1
        let candidates: [RoadLink]
        do { candidates = try network.links(near: centre, radius: reach) } catch {
            throw .mapUnreadable("\(error)")
        }
        var pieces: [CustomObjectPiece] = []
        for link in candidates.sorted(by: { $0.id < $1.id }) {
            let count = max(1, Int((link.length / step).rounded(.up)))
            var start: Double?
            var previous = 0.0
            for sample in 0...count {
                let offset = link.length * Double(sample) / Double(count)
                guard let point = link.geometry.point(atOffset: offset)?.point else { continue }
                let inside = Self.contains(ring, point)
                if inside, start == nil { start = offset }
                if !inside, let begun = start {
                    pieces.append(CustomObjectPiece(link: link.id, direction: nil, start: begun, end: previous))
                    start = nil
                }
                previous = offset
            }
            if let begun = start {
                pieces.append(CustomObjectPiece(link: link.id, direction: nil, start: begun, end: link.length))
            }
        }
        guard !pieces.isEmpty else { throw .noRoadInside }
        return pieces
    }

    /// Even-odd test of `point` against the closed `ring` (degrees as a plane: fine at the size of
    /// a zone on a road).
    static func contains(_ ring: [GeoPoint], _ point: GeoPoint) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                let x =
                    (b.longitude - a.longitude) * (point.latitude - a.latitude) / (b.latitude - a.latitude)
                    + a.longitude
                if point.longitude < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}

import Foundation
import RoadMap

/// The nearest link to each of a few points (safety cameras beside the road), in one pass over
/// all links: the points are filed in a coarse grid and each link meets only the points near its
/// bounding box, so memory follows the number of points, not the size of the map.
enum NearestLink {
    /// The link index and projection of the nearest link within `metres` of each point, by point
    /// identifier (absent when none is that near). On equal distances the lower link index wins.
    static func find(
        for points: [(id: Int64, point: GeoPoint)], among links: [RoadLink], within metres: Double
    ) -> [Int64: (link: Int, projection: PolylineProjection)] {
        guard !points.isEmpty else { return [:] }
        let cellDegrees = 0.01
        func cell(_ latitude: Double, _ longitude: Double) -> Cell {
            Cell(
                row: Int((latitude / cellDegrees).rounded(.down)), column: Int((longitude / cellDegrees).rounded(.down))
            )
        }
        var grid: [Cell: [Int]] = [:]
        for (index, entry) in points.enumerated() {
            grid[cell(entry.point.latitude, entry.point.longitude), default: []].append(index)
        }
        var best: [Int64: (link: Int, projection: PolylineProjection)] = [:]
        for (linkIndex, link) in links.enumerated() {
            guard let first = link.geometry.first else { continue }
            var south = first.latitude, north = first.latitude, west = first.longitude, east = first.longitude
            for point in link.geometry {
                south = min(south, point.latitude); north = max(north, point.latitude)
                west = min(west, point.longitude); east = max(east, point.longitude)
            }
            // The box grown by the distance (longitude degrees are shortest at the box's edge
            // farthest from the equator); the margin covers rounding.
            let latitudeMargin = metres / 111_000 * 1.01
            let widest = max(abs(south), abs(north)) + latitudeMargin
            let longitudeMargin = metres / (111_000 * max(0.01, cos(min(widest, 89.9) * .pi / 180))) * 1.01
            let low = cell(south - latitudeMargin, west - longitudeMargin)
            let high = cell(north + latitudeMargin, east + longitudeMargin)
            for row in low.row...high.row {
                for column in low.column...high.column {
                    for index in grid[Cell(row: row, column: column)] ?? [] {
                        let (id, point) = points[index]
                        guard let projection = link.geometry.project(point), projection.distance <= metres else {
                            continue
                        }
                        if let known = best[id], known.projection.distance <= projection.distance { continue }
                        best[id] = (linkIndex, projection)
                    }
                }
            }
        }
        return best
    }

    private struct Cell: Hashable {
        var row: Int
        var column: Int
    }
}

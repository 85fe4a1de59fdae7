import Foundation
import RoadMap

/// A uniform grid over latitude and longitude that files each polyline under every cell its
/// segments' bounding boxes touch: "which polylines come within d metres of this point?" then
/// reads a few cells instead of every polyline.
struct SegmentGrid {
    /// Cell height in degrees of latitude (`cellMetres` of northing).
    let cellDegrees: Double
    private var cells: [Cell: [Int]] = [:]

    private struct Cell: Hashable { var row: Int32, column: Int32 }

    /// A grid whose cells are `cellMetres` high (and as many degrees wide: narrower in metres away
    /// from the equator, which ``indices(near:within:)`` makes up for).
    init(cellMetres: Double) {
        cellDegrees = cellMetres / 111_320
    }

    private func cell(latitude: Double, longitude: Double) -> Cell {
        Cell(
            row: Int32((latitude / cellDegrees).rounded(.down)), column: Int32((longitude / cellDegrees).rounded(.down))
        )
    }

    /// Files `index` under every cell its geometry's segments reach.
    mutating func insert(_ index: Int, geometry: [GeoPoint]) {
        var seen = Set<Cell>()
        for (a, b) in zip(geometry, geometry.dropFirst()) {
            let low = cell(latitude: min(a.latitude, b.latitude), longitude: min(a.longitude, b.longitude))
            let high = cell(latitude: max(a.latitude, b.latitude), longitude: max(a.longitude, b.longitude))
            for row in low.row...high.row {
                for column in low.column...high.column where seen.insert(Cell(row: row, column: column)).inserted {
                    cells[Cell(row: row, column: column), default: []].append(index)
                }
            }
        }
    }

    /// Every index filed within `metres` of `point` (and possibly a few farther), ascending.
    func indices(near point: GeoPoint, within metres: Double) -> [Int] {
        let rows = Int((metres / 111_320 / cellDegrees).rounded(.up))
        let metresPerDegreeOfLongitude = max(111_320 * cos(point.latitude * .pi / 180), 1)
        let columns = Int((metres / metresPerDegreeOfLongitude / cellDegrees).rounded(.up))
        let centre = cell(latitude: point.latitude, longitude: point.longitude)
        var found = Set<Int>()
        for row in (Int(centre.row) - rows)...(Int(centre.row) + rows) {
            for column in (Int(centre.column) - columns)...(Int(centre.column) + columns) {
                for index in cells[Cell(row: Int32(row), column: Int32(column))] ?? [] { found.insert(index) }
            }
        }
        return found.sorted()
    }
}

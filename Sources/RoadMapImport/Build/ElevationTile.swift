import Foundation
import RoadMap

/// Why elevation tiles could not be used.
public struct ElevationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for a caller to switch on.
    public enum Problem: Hashable, Sendable {
        /// The `--srtm` path is not a readable directory.
        case notADirectory
        /// The tile's byte count is not a 1201×1201 or 3601×3601 grid of 16-bit samples.
        case wrongSize(bytes: Int)
        /// The tile exists but could not be read.
        case unreadable
    }

    /// The directory or tile file.
    public var path: String
    /// What is wrong with it.
    public var problem: Problem

    /// Creates an error about `path`.
    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// One sentence: what, where, what to do.
    public var description: String {
        switch problem {
        case .notADirectory:
            return
                "elevation tiles: \(path) is not a readable directory; pass --srtm a directory of SRTM .hgt tiles (N60E024.hgt, …)"
        case .wrongSize(let bytes):
            return
                "elevation tile \(path): \(bytes) bytes is not a 1201×1201 (3\") or 3601×3601 (1\") grid of 16-bit samples; "
                + "replace it with an unpacked SRTM .hgt tile or remove it"
        case .unreadable:
            return "elevation tile \(path) exists but cannot be read; check its permissions"
        }
    }
}

/// A 1°×1° SRTM cell, named by its south-west corner.
public struct ElevationCell: Hashable, Sendable, Comparable {
    /// Latitude of the south edge, whole degrees.
    public var south: Int
    /// Longitude of the west edge, whole degrees.
    public var west: Int

    /// The cell with the given south-west corner.
    public init(south: Int, west: Int) {
        self.south = south
        self.west = west
    }

    /// The cell containing `point` (a point on an edge belongs to the cell north or east of it).
    public init(containing point: GeoPoint) {
        self.init(south: Int(point.latitude.rounded(.down)), west: Int(point.longitude.rounded(.down)))
    }

    /// The SRTM file name, e.g. `N60E024.hgt`.
    public var fileName: String {
        let ns = south >= 0 ? "N" : "S", ew = west >= 0 ? "E" : "W"
        let latitude = String(abs(south)), longitude = String(abs(west))
        return ns + String(repeating: "0", count: max(0, 2 - latitude.count)) + latitude
            + ew + String(repeating: "0", count: max(0, 3 - longitude.count)) + longitude + ".hgt"
    }

    /// South to north, then west to east.
    public static func < (lhs: ElevationCell, rhs: ElevationCell) -> Bool {
        (lhs.south, lhs.west) < (rhs.south, rhs.west)
    }
}

/// One decoded SRTM `.hgt` tile: `size`×`size` big-endian 16-bit heights in metres, rows from
/// north to south, columns from west to east, edges shared with the neighbouring tiles;
/// −32768 marks a void.
struct ElevationTile: Sendable {
    /// Samples per row and per column: 1201 (3") or 3601 (1").
    let size: Int
    /// Heights row by row, north first.
    let samples: [Int16]

    /// The value SRTM uses for "no data".
    static let void = Int16.min

    /// Decodes a tile's bytes; `path` names it in the error.
    init(data: Data, path: String) throws(ElevationError) {
        let size: Int
        switch data.count {
        case 1201 * 1201 * 2: size = 1201
        case 3601 * 3601 * 2: size = 3601
        default: throw ElevationError(path: path, problem: .wrongSize(bytes: data.count))
        }
        var samples = [Int16](repeating: 0, count: size * size)
        data.withUnsafeBytes { raw in
            samples.withUnsafeMutableBufferPointer { out in
                for index in out.indices {
                    out[index] = Int16(bitPattern: UInt16(raw[2 * index]) << 8 | UInt16(raw[2 * index + 1]))
                }
            }
        }
        self.size = size
        self.samples = samples
    }

    /// The height at `point` inside `cell` by bilinear interpolation of the four surrounding
    /// samples; a void sample drops out (the others' weights are scaled up), `nil` when all four
    /// are void.
    func height(at point: GeoPoint, in cell: ElevationCell) -> Double? {
        let last = Double(size - 1)
        let row = min(max((Double(cell.south + 1) - point.latitude) * last, 0), last)
        let column = min(max((point.longitude - Double(cell.west)) * last, 0), last)
        let r0 = min(Int(row), size - 2), c0 = min(Int(column), size - 2)
        let fr = row - Double(r0), fc = column - Double(c0)
        let corners = [
            (r0, c0, (1 - fr) * (1 - fc)), (r0, c0 + 1, (1 - fr) * fc),
            (r0 + 1, c0, fr * (1 - fc)), (r0 + 1, c0 + 1, fr * fc),
        ]
        var sum = 0.0, weights = 0.0
        var nearestPresent: Double?  // when the point sits on a void sample, a neighbour one sample away
        for (r, c, weight) in corners where samples[r * size + c] != Self.void {
            let height = Double(samples[r * size + c])
            sum += height * weight
            weights += weight
            nearestPresent = nearestPresent ?? height
        }
        guard let nearestPresent else { return nil }
        return weights > 0 ? sum / weights : nearestPresent
    }
}

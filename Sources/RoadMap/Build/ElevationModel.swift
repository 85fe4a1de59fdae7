import Foundation

/// Why an elevation tile could not be used.
public struct ElevationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The tile file.
    public var path: String
    /// What is wrong.
    public var problem: String

    /// One sentence: what, where, what to do.
    public var description: String {
        "elevation tile \(path): \(problem). Use SRTM .hgt tiles of 1201×1201 (3\") or 3601×3601 (1\") samples, named like N60E024.hgt."
    }
}

/// Terrain height from SRTM `.hgt` tiles in a directory (one file per 1°×1° cell, named by its
/// south-west corner, e.g. `N60E024.hgt`; big-endian 16-bit metres, rows from north to south,
/// −32768 = void), with bilinear interpolation. Tiles are read when first needed.
public final class ElevationModel {
    /// The directory of `.hgt` tiles.
    public let directory: String
    private var tiles: [Int32: Tile?] = [:]

    private struct Tile {
        var size: Int
        var samples: [Int16]
    }

    /// Elevation tiles from `directory`; fails when it is not a readable directory.
    public init(directory: String) throws(ElevationError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ElevationError(path: directory, problem: "not a directory")
        }
        self.directory = directory
    }

    /// The file name of the tile holding `point` (e.g. `N60E024.hgt`).
    public static func tileName(latitude: Int, longitude: Int) -> String {
        let ns = latitude >= 0 ? "N" : "S", ew = longitude >= 0 ? "E" : "W"
        return ns + String(format: "%02d", abs(latitude)) + ew + String(format: "%03d", abs(longitude)) + ".hgt"
    }

    /// Metres above sea level at `point`; `nil` where no tile covers it or a sample is void.
    public func elevation(at point: GeoPoint) throws(ElevationError) -> Double? {
        let south = Int(point.latitude.rounded(.down)), west = Int(point.longitude.rounded(.down))
        guard let tile = try tile(latitude: south, longitude: west) else { return nil }
        let last = Double(tile.size - 1)
        let row = (Double(south + 1) - point.latitude) * last
        let column = (point.longitude - Double(west)) * last
        let r0 = min(Int(row), tile.size - 2), c0 = min(Int(column), tile.size - 2)
        let fr = row - Double(r0), fc = column - Double(c0)
        var corners: [Double] = []
        for (r, c) in [(r0, c0), (r0, c0 + 1), (r0 + 1, c0), (r0 + 1, c0 + 1)] {
            let sample = tile.samples[r * tile.size + c]
            if sample == Int16.min { return nil }
            corners.append(Double(sample))
        }
        let top = corners[0] * (1 - fc) + corners[1] * fc
        let bottom = corners[2] * (1 - fc) + corners[3] * fc
        return top * (1 - fr) + bottom * fr
    }

    private func tile(latitude: Int, longitude: Int) throws(ElevationError) -> Tile? {
        let key = Int32(latitude + 90) * 400 + Int32(longitude + 180)
        if let cached = tiles[key] { return cached }
        let path = (directory as NSString).appendingPathComponent(Self.tileName(latitude: latitude, longitude: longitude))
        guard let data = FileManager.default.contents(atPath: path) else {
            tiles[key] = .some(nil)
            return nil
        }
        let count = data.count / 2
        let size = Int(Double(count).squareRoot().rounded())
        guard data.count % 2 == 0, size * size == count, size == 1201 || size == 3601 else {
            throw ElevationError(path: path, problem: "\(data.count) bytes is not a 1201×1201 or 3601×3601 grid of 16-bit samples")
        }
        var samples = [Int16](repeating: 0, count: count)
        data.withUnsafeBytes { raw in
            for index in 0..<count {
                samples[index] = Int16(bitPattern: UInt16(raw[2 * index]) << 8 | UInt16(raw[2 * index + 1]))
            }
        }
        let tile = Tile(size: size, samples: samples)
        tiles[key] = .some(tile)
        return tile
    }
}

/// Slope along a link from terrain heights: sampled about every 50 m, one value per stretch in
/// percent (positive uphill in the link's forward direction), rounded to 0.1 % and clamped to
/// ±30 %, equal neighbours merged. A link shorter than 50 m is one stretch. SRTM's 30–90 m grid
/// makes finer sampling noise, not detail.
public enum ElevationSlope {
    /// The slope profile of `geometry`, `nil` when a height is missing anywhere along it.
    public static func profile(along geometry: [GeoPoint], model: ElevationModel,
                               spacing: Double = 50) throws(ElevationError) -> [ProfilePoint]? {
        let length = geometry.polylineLength
        guard length > 0 else { return nil }
        let stretches = max(1, Int((length / spacing).rounded()))
        var heights: [Double] = []
        for index in 0...stretches {
            guard let point = geometry.point(atOffset: length * Double(index) / Double(stretches))?.point,
                  let height = try model.elevation(at: point) else { return nil }
            heights.append(height)
        }
        var result: [ProfilePoint] = []
        let step = length / Double(stretches)
        for index in 0..<stretches {
            let percent = min(30, max(-30, ((heights[index + 1] - heights[index]) / step * 1000).rounded() / 10))
            if result.last?.value == percent { continue }
            result.append(ProfilePoint(offset: step * Double(index), value: percent))
        }
        return result
    }
}

extension RoadGraph {
    /// The graph with a slope profile from terrain heights on every link that has none from OSM
    /// `incline` (tagged values win); counts what it could and could not cover in the report.
    public func applyingTerrainSlope(_ model: ElevationModel) throws(ElevationError) -> RoadGraph {
        var result = self
        var covered = 0, uncovered = 0
        for index in result.links.indices where result.links[index].slope.isEmpty {
            if let profile = try ElevationSlope.profile(along: result.links[index].geometry, model: model) {
                result.links[index].slope = profile
                covered += 1
            } else {
                uncovered += 1
            }
        }
        result.report.linksWithTerrainSlope = covered
        result.report.linksWithoutTerrain = uncovered
        return result
    }
}

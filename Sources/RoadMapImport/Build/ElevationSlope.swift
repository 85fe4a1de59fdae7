import RoadMap

/// Slope along a link from terrain heights.
///
/// Heights are sampled every ``sampleSpacing`` metres along the geometry (evenly, ends included).
/// A stretch's slope is the height difference across a window of ``smoothingStretches`` stretches
/// on each side of it (about 210 m, shorter at the link's ends) divided by the window's length:
/// SRTM heights are whole metres, so a 210 m window keeps that rounding below ±0.5 % while a hill of
/// a few hundred metres still shows. Consecutive stretches whose smoothed slopes spread by no more
/// than ``runBand`` (1 %) form one profile value, their mean: what is left of the rounding noise
/// does not become profile points (a steady grade is one value, a hill a handful). Values are in
/// percent, positive uphill in the link's forward direction, clamped to ±``maximumPercent``,
/// rounded to 0.1 % (ADASIS's slope resolution); equal neighbours are merged.
/// Bridges and tunnels get one grade from end to end: the terrain under a bridge or above a tunnel
/// is not the road.
public enum ElevationSlope {
    /// Distance between height samples along a link, metres (about SRTM's 1" grid).
    public static let sampleSpacing = 30.0
    /// Stretches on each side of a stretch averaged into its slope (3: a 7-stretch, ~210 m window).
    public static let smoothingStretches = 3
    /// The steepest slope given, percent; steeper values are clamped.
    public static let maximumPercent = 30.0
    /// The widest spread of smoothed slopes one profile value stands for, percent.
    public static let runBand = 1.0

    /// The slope profile of `geometry` from `height`, `nil` when a height is missing anywhere along
    /// it. With `uniformGrade` (bridges, tunnels) only the ends are sampled.
    public static func profile(
        along geometry: [GeoPoint], uniformGrade: Bool = false,
        height: (GeoPoint) throws(ElevationError) -> Double?
    ) throws(ElevationError) -> [ProfilePoint]? {
        let length = geometry.polylineLength
        guard length > 0 else { return nil }
        let stretches = uniformGrade ? 1 : max(1, Int((length / sampleSpacing).rounded()))
        let step = length / Double(stretches)
        var heights: [Double] = []
        heights.reserveCapacity(stretches + 1)
        for point in samplePoints(along: geometry, count: stretches + 1, length: length) {
            guard let value = try height(point) else { return nil }
            heights.append(value)
        }
        let slopes = (0..<stretches).map { index in
            let start = max(0, index - smoothingStretches), end = min(stretches, index + 1 + smoothingStretches)
            let percent = (heights[end] - heights[start]) / (Double(end - start) * step) * 100
            return min(maximumPercent, max(-maximumPercent, percent))
        }
        var result: [ProfilePoint] = []
        func close(_ run: Range<Int>) {
            let mean = slopes[run].reduce(0, +) / Double(run.count)
            let value = (mean * 10).rounded() / 10 + 0  // + 0: no −0
            if result.last?.value != value {
                result.append(ProfilePoint(offset: step * Double(run.lowerBound), value: value))
            }
        }
        var runStart = 0, low = slopes[0], high = slopes[0]
        for index in 1..<max(1, stretches) {
            low = min(low, slopes[index])
            high = max(high, slopes[index])
            if high - low > runBand {
                close(runStart..<index)
                runStart = index
                low = slopes[index]
                high = slopes[index]
            }
        }
        close(runStart..<stretches)
        return result
    }

    /// `count` points evenly spaced along `geometry` (first and last point included), found in
    /// one walk along it.
    static func samplePoints(along geometry: [GeoPoint], count: Int, length: Double) -> [GeoPoint] {
        var result: [GeoPoint] = []
        result.reserveCapacity(count)
        var segment = 1, segmentStart = 0.0
        var segmentLength = geometry[0].distance(to: geometry[1])
        for index in 0..<count {
            let target = index == count - 1 ? length : length * Double(index) / Double(count - 1)
            while target > segmentStart + segmentLength, segment < geometry.count - 1 {
                segmentStart += segmentLength
                segment += 1
                segmentLength = geometry[segment - 1].distance(to: geometry[segment])
            }
            let a = geometry[segment - 1], b = geometry[segment]
            let t = segmentLength > 0 ? min(1, max(0, (target - segmentStart) / segmentLength)) : 0
            result.append(
                GeoPoint(
                    latitude: a.latitude + (b.latitude - a.latitude) * t,
                    longitude: a.longitude + (b.longitude - a.longitude) * t))
        }
        return result
    }
}

extension RoadGraph {
    /// The graph with a slope profile from terrain heights on every link that has none from OSM
    /// `incline` (tagged values win); counts the links it could and could not cover in the report.
    /// Links are visited cell by cell (by the SRTM cell of their first point) so that each tile is
    /// read about once whatever the order of the links.
    public func applyingElevationSlope(_ model: ElevationModel) throws(ElevationError) -> RoadGraph {
        var model = model
        var result = self
        var covered = 0, uncovered = 0
        let order = result.links.indices.filter { result.links[$0].slope.isEmpty }
            .map { (cell: ElevationCell(containing: result.links[$0].geometry[0]), index: $0) }
            .sorted { ($0.cell, $0.index) < ($1.cell, $1.index) }
        for (_, index) in order {
            let link = result.links[index]
            let profile = try ElevationSlope.profile(
                along: link.geometry, uniformGrade: link.tunnel == true || link.bridge == true
            ) {
                point throws(ElevationError) in try model.elevation(at: point)
            }
            if let profile {
                result.links[index].slope = profile
                covered += 1
            } else {
                uncovered += 1
            }
        }
        result.report.linksWithElevationSlope = covered
        result.report.linksWithoutElevation = uncovered
        return result
    }
}

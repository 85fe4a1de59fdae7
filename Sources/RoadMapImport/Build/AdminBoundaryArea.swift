import RoadMap

/// A country or region whose complete boundary the extract holds, ready for point-in-polygon tests.
///
/// A point is inside when an odd number of ring edges cross the ray from it eastwards (even-odd
/// over outer and inner rings together: outer rings minus inner rings, enclaves included). The
/// edges are filed into latitude bands so a test looks only at the edges of the point's band: a
/// country boundary of 10⁵ nodes costs a few dozen edge checks per point, not 10⁵. Edges spanning
/// more than ``longEdgeBands`` bands (long straight sea borders) are checked on every test instead,
/// which bounds the index to `longEdgeBands` copies of each edge.
struct AdminBoundaryArea: Sendable {
    /// ISO 3166-1 alpha-2 (countries) or ISO 3166-2 (regions) code.
    let code: String
    /// OSM admin_level: 2 country, 4 region.
    let level: Int
    /// Edges of all rings.
    let edgeCount: Int
    private let south: Double, north: Double, west: Double, east: Double
    private let bandHeight: Double
    private let bands: [[Edge]]
    private let longEdges: [Edge]

    /// Bands an edge may span before it is checked on every test instead.
    static let longEdgeBands = 64

    private struct Edge: Sendable {
        var a: GeoPoint
        var b: GeoPoint
    }

    /// An area from closed rings (first point repeated at the end).
    init(code: String, level: Int, rings: [[GeoPoint]]) {
        self.code = code
        self.level = level
        var edges: [Edge] = []
        var south = Double.infinity, west = Double.infinity, north = -Double.infinity, east = -Double.infinity
        for ring in rings where ring.count > 1 {
            for index in 1..<ring.count {
                edges.append(Edge(a: ring[index - 1], b: ring[index]))
            }
            for point in ring {
                south = min(south, point.latitude); north = max(north, point.latitude)
                west = min(west, point.longitude); east = max(east, point.longitude)
            }
        }
        self.south = south; self.north = north; self.west = west; self.east = east
        edgeCount = edges.count
        let bandCount = max(1, min(16_384, edges.count / 4))
        bandHeight = north > south ? (north - south) / Double(bandCount) : 1
        var bands = [[Edge]](repeating: [], count: bandCount)
        var longEdges: [Edge] = []
        for edge in edges {
            let low = Self.band(
                min(edge.a.latitude, edge.b.latitude), south: south, height: bandHeight, count: bandCount)
            let high = Self.band(
                max(edge.a.latitude, edge.b.latitude), south: south, height: bandHeight, count: bandCount)
            if high - low >= Self.longEdgeBands {
                longEdges.append(edge)
            } else {
                for band in low...high { bands[band].append(edge) }
            }
        }
        self.bands = bands
        self.longEdges = longEdges
    }

    private static func band(_ latitude: Double, south: Double, height: Double, count: Int) -> Int {
        min(count - 1, max(0, Int((latitude - south) / height)))
    }

    /// Whether `point` lies inside (even-odd rule over all rings).
    func contains(_ point: GeoPoint) -> Bool {
        guard point.latitude >= south, point.latitude <= north, point.longitude >= west, point.longitude <= east else {
            return false
        }
        var inside = false
        for edges in [
            bands[Self.band(point.latitude, south: south, height: bandHeight, count: bands.count)], longEdges,
        ] {
            for edge in edges where (edge.a.latitude > point.latitude) != (edge.b.latitude > point.latitude) {
                let crossing =
                    edge.a.longitude + (point.latitude - edge.a.latitude)
                    / (edge.b.latitude - edge.a.latitude) * (edge.b.longitude - edge.a.longitude)
                if point.longitude < crossing { inside.toggle() }
            }
        }
        return inside
    }
}

/// Where a way or link lies: its country and region code (index into the sorted region codes + 1).
struct AdminPlace: Hashable, Sendable {
    /// The country, `nil` when neither a boundary nor `--country` tells.
    var country: Country?
    /// Index + 1 into ``AdminPlacement/regionCodes``, 0 unknown.
    var region: UInt16
}

/// Places geometry into the complete countries and regions of the extract, falling back to the
/// configured country where no country boundary covers it.
struct AdminPlacement: Sendable {
    /// The sorted ISO 3166-2 codes of the complete region boundaries (a region code is index + 1).
    let regionCodes: [String]
    private let countries: [(area: AdminBoundaryArea, country: Country)]
    private let regions: [(area: AdminBoundaryArea, code: UInt16)]
    private let fallback: Country?

    /// A placement over `areas`; countries whose code is not ISO 3166-1 are ignored.
    init(areas: [AdminBoundaryArea], fallback: Country?) {
        regionCodes = Array(Set(areas.filter { $0.level == 4 }.map(\.code))).sorted()
        countries = areas.filter { $0.level == 2 }.compactMap { area in
            (try? Country(alpha2: area.code)).map { (area, $0) }
        }
        let index = Dictionary(
            uniqueKeysWithValues: regionCodes.enumerated().map { ($0.element, UInt16($0.offset + 1)) })
        // `index` holds every level-4 code: it was built from them.
        regions = areas.filter { $0.level == 4 }.map { ($0, index[$0.code]!) }
        self.fallback = fallback
    }

    /// The country and region containing the middle of `geometry` (by length).
    func place(_ geometry: [GeoPoint]) -> AdminPlace {
        guard !countries.isEmpty || !regions.isEmpty,
            let middle = geometry.point(atOffset: geometry.polylineLength / 2)?.point
        else {
            return AdminPlace(country: fallback, region: 0)
        }
        let country = countries.first { $0.area.contains(middle) }?.country
        let region = regions.first { $0.area.contains(middle) }?.code
        return AdminPlace(country: country ?? fallback, region: region ?? 0)
    }
}

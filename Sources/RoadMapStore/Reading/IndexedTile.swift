import RoadMap

/// A decoded tile with the bounding box of each of its links, so radius queries project only the
/// links whose box comes near the query point.
struct IndexedTile: Sendable {
    /// The tile.
    var tile: MapTile
    /// The box of `tile.links[i]` at index `i`.
    var bounds: [LinkBounds]
    /// The box of `tile.passingLinks[i]` at index `i`, worked out by the first radius query that
    /// reaches the tile (the links are stored in other tiles); `nil` until then.
    var passingBounds: [LinkBounds]?

    /// Indexes `tile`.
    init(_ tile: MapTile) {
        self.tile = tile
        bounds = tile.links.map { LinkBounds($0.geometry) }
    }
}

/// South, west, north, east of a link's geometry, degrees.
struct LinkBounds: Sendable {
    var south: Double, west: Double, north: Double, east: Double

    /// The box around `geometry`.
    init(_ geometry: [GeoPoint]) {
        south = .infinity; west = .infinity; north = -.infinity; east = -.infinity
        for point in geometry {
            south = min(south, point.latitude); north = max(north, point.latitude)
            west = min(west, point.longitude); east = max(east, point.longitude)
        }
    }

    /// Whether `point` lies within the box widened by the margins (degrees).
    func isNear(_ point: GeoPoint, latitudeMargin: Double, longitudeMargin: Double) -> Bool {
        point.latitude >= south - latitudeMargin && point.latitude <= north + latitudeMargin
            && point.longitude >= west - longitudeMargin && point.longitude <= east + longitudeMargin
    }
}

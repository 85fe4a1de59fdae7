/// A point in a vector tile's integer grid: x east, y south, (0, 0) the tile's north-west corner.
public struct TilePoint: Hashable, Sendable {
    /// Grid units east of the tile's west edge (negative or ≥ extent in the buffer).
    public var x: Int32
    /// Grid units south of the tile's north edge.
    public var y: Int32

    /// Creates a grid point.
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// One layer of a Mapbox Vector Tile (MVT 2.1) being built: features with line geometry and
/// attributes, the keys and values shared through the layer's tables.
public struct VectorTileLayer: Sendable {
    /// The layer's name (a style's `source-layer`).
    public let name: String
    /// Grid units per tile edge.
    public let extent: UInt32
    /// Features added so far.
    public private(set) var featureCount = 0
    private var keys: [String] = []
    private var keyIndex: [String: UInt32] = [:]
    private var values: [VectorTileValue] = []
    private var valueIndex: [VectorTileValue: UInt32] = [:]
    private var features = ProtobufWriter()

    /// Creates an empty layer.
    public init(name: String, extent: UInt32 = 4096) {
        self.name = name
        self.extent = extent
    }

    /// Adds a line feature made of `lines` (each at least two distinct points; shorter ones are
    /// dropped, and nothing is added when none is left). Attributes are written sorted by key.
    public mutating func addLines(_ lines: [[TilePoint]], id: UInt64?, attributes: [String: VectorTileValue]) {
        let geometry = Self.lineGeometry(lines)
        guard !geometry.isEmpty else { return }
        var tags: [UInt32] = []
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            tags.append(index(ofKey: key))
            tags.append(index(ofValue: value))
        }
        var feature = ProtobufWriter()
        if let id { feature.varintField(1, id) }
        feature.packedField(2, tags)
        feature.varintField(3, 2)  // GeomType LINESTRING
        feature.packedField(4, geometry)
        features.bytesField(2, feature.bytes)
        featureCount += 1
    }

    /// The encoded `Layer` message.
    var encoded: [UInt8] {
        var writer = ProtobufWriter()
        writer.varintField(15, 2)  // version
        writer.stringField(1, name)
        var body = writer.bytes
        body.append(contentsOf: features.bytes)
        writer = ProtobufWriter()
        for key in keys { writer.stringField(3, key) }
        for value in values { writer.bytesField(4, value.encoded) }
        writer.varintField(5, UInt64(extent))
        body.append(contentsOf: writer.bytes)
        return body
    }

    private mutating func index(ofKey key: String) -> UInt32 {
        if let index = keyIndex[key] { return index }
        let index = UInt32(keys.count)
        keys.append(key)
        keyIndex[key] = index
        return index
    }

    private mutating func index(ofValue value: VectorTileValue) -> UInt32 {
        if let index = valueIndex[value] { return index }
        let index = UInt32(values.count)
        values.append(value)
        valueIndex[value] = index
        return index
    }

    /// Command integers for line strings: MoveTo(1) then LineTo(n) with zigzag deltas, the
    /// cursor carried from one line to the next; repeated points are left out.
    static func lineGeometry(_ lines: [[TilePoint]]) -> [UInt32] {
        var result: [UInt32] = []
        var cursor = TilePoint(x: 0, y: 0)
        for line in lines {
            var points: [TilePoint] = []
            for point in line where point != points.last { points.append(point) }
            guard points.count >= 2 else { continue }
            result.append(command(1, count: 1))
            append(points[0], to: &result, cursor: &cursor)
            result.append(command(2, count: points.count - 1))
            for point in points.dropFirst() { append(point, to: &result, cursor: &cursor) }
        }
        return result
    }

    private static func command(_ id: UInt32, count: Int) -> UInt32 { UInt32(count) << 3 | id }

    private static func append(_ point: TilePoint, to result: inout [UInt32], cursor: inout TilePoint) {
        result.append(ProtobufWriter.zigzag(point.x &- cursor.x))
        result.append(ProtobufWriter.zigzag(point.y &- cursor.y))
        cursor = point
    }
}

/// A Mapbox Vector Tile: its layers, encoded as the `Tile` protobuf message.
public struct VectorTile: Sendable {
    /// The layers, in drawing order.
    public var layers: [VectorTileLayer]

    /// Creates a tile from layers.
    public init(layers: [VectorTileLayer]) { self.layers = layers }

    /// The tile's protobuf bytes (uncompressed); layers without features are left out.
    public func encoded() -> [UInt8] {
        var writer = ProtobufWriter()
        for layer in layers where layer.featureCount > 0 { writer.bytesField(3, layer.encoded) }
        return writer.bytes
    }
}

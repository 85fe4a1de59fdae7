import RoadMap

/// Vector tiles of a road network on demand, the most recently used kept in memory.
///
/// Not thread-safe (nor is the ``RoadNetwork`` it reads): use one instance per thread or guard it.
public final class RoadTileSource<Network: RoadNetwork> {
    /// The network tiles are drawn from.
    public let network: Network
    /// The layer layout.
    public let layer: RoadTileLayer
    /// The number of tiles kept.
    public let capacity: Int
    /// Tiles built since creation (cache misses).
    public private(set) var tilesBuilt = 0
    private var cached: [TileAddress: (bytes: [UInt8], lastUse: UInt64)] = [:]
    private var uses: UInt64 = 0

    /// A source drawing from `network`, keeping up to `capacity` tiles (at least one).
    public init(network: Network, layer: RoadTileLayer = RoadTileLayer(), capacity: Int = 256) {
        self.network = network
        self.layer = layer
        self.capacity = max(1, capacity)
    }

    /// The encoded tile (uncompressed MVT protobuf; empty when no road crosses it).
    public func tile(_ address: TileAddress) throws -> [UInt8] {
        uses += 1
        if let hit = cached[address] {
            cached[address] = (hit.bytes, uses)
            return hit.bytes
        }
        let bytes = VectorTile(layers: [try layer.layer(address, from: network)]).encoded()
        tilesBuilt += 1
        if cached.count >= capacity, let oldest = cached.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            cached[oldest] = nil
        }
        cached[address] = (bytes, uses)
        return bytes
    }

    /// Forgets every kept tile (after the network changed).
    public func removeAll() { cached.removeAll() }
}

import RoadMap

/// The map file's index of the links holding a safety location (map format 5): table
/// `safety_links`, one row per tile and link, for every tile the link lies in or crosses, with the
/// types of the safety locations whose own point it holds (``PointFeature/safetyLocationStartType``);
/// and table `safety_link_records`, a copy of each such link, coded as a tile of that one link.
/// Danger zones are looked for over kilometres around the vehicle
/// (``MapFile/linksWithSafetyLocations(near:radius:of:)``): the index answers that without
/// reading a tile of the area.
struct SafetyLinkIndex {
    /// One row of the index.
    struct Row: Equatable {
        /// A tile the link lies in or crosses.
        var tile: TileKey
        /// The link (stored in its home tile, ``LinkID/tile``).
        var link: LinkID
        /// The types of its safety locations (``mask(of:)``).
        var types: Int64
    }

    /// The rows of `safety_links`, in tile then link order.
    let rows: [Row]
    /// The rows of `safety_link_records`: each link holding a safety location, coded as a tile
    /// holding that one link (``TileCodec``: checksum, format version), in link order.
    let records: [(link: LinkID, blob: [UInt8])]

    /// The index of `tiles` (as ``MapTileAssembly`` distributes a graph).
    init(tiles: [TileKey: MapTile]) {
        var types: [LinkID: Int64] = [:]
        var records: [(link: LinkID, blob: [UInt8])] = []
        for tile in tiles.values {
            for link in tile.links {
                let held = Self.mask(of: link.features.compactMap(\.safetyLocationStartType))
                guard held != 0 else { continue }
                types[link.id] = held
                var record = MapTile(links: [link])
                record.turns.append(forward: [], backward: [])  // a tile has turns for each link: none here
                records.append((link.id, TileCodec.encode(record)))
            }
        }
        self.records = records.sorted { $0.link < $1.link }
        var rows: [Row] = []
        // A map without safety locations has no rows: its tiles are not even sorted.
        if !types.isEmpty {
            for (key, tile) in tiles.sorted(by: { $0.key < $1.key }) {
                let ids = Set(
                    tile.links.map(\.id).filter { types[$0] != nil } + tile.passingLinks.filter { types[$0] != nil })
                for id in ids.sorted() { rows.append(Row(tile: key, link: id, types: types[id]!)) }
            }
        }
        self.rows = rows
    }

    /// The link of a record (``records``) stored for `link`, whose home tile is `tile`.
    ///
    /// - Throws: the record's integrity error; `invalidValue` when it does not hold exactly that link.
    static func link(fromRecord blob: [UInt8], link: LinkID, tile: TileKey) throws(TileIntegrityError) -> RoadLink {
        let decoded = try TileCodec.decode(blob, tile: tile)
        guard decoded.links.count == 1, decoded.links[0].id == link else {
            throw .undecodable(tile: tile, .invalidValue(field: "link", offset: 4))
        }
        return decoded.links[0]
    }

    /// The bits of `types`: each type's index in ``RoadObjectType/allCases`` (as tiles code a
    /// zone's type).
    static func mask<Types: Sequence<RoadObjectType>>(of types: Types) -> Int64 {
        var mask: Int64 = 0
        for type in types { mask |= 1 << Int64(RoadObjectType.allCases.firstIndex(of: type)!) }
        return mask
    }
}

import Foundation
import RoadMap

/// Builds the `roads` layer of a vector tile from a road network: every link crossing the tile
/// (plus a buffer), clipped, with the attributes a map style draws by.
///
/// Attributes: `class` (the OSM highway value, such as `primary` or `motorway_link`),
/// `functional_class` (1–6), `name` and `ref` when known, `maxspeed_forward` and
/// `maxspeed_backward` (km/h, or `none` for no limit; left out when unknown or when that direction
/// is closed), `oneway` (0, 1 along the geometry, −1 against it), `tunnel` and `bridge` when
/// known. The feature id is the link's ``LinkID``; geometry runs in the link's forward direction.
public struct RoadTileLayer: Sendable {
    /// The layer's name in the tile.
    public static let name = "roads"
    /// Grid units per tile edge.
    public var extent: UInt32 = 4096
    /// Grid units drawn beyond each edge, so that lines join across tiles.
    public var buffer: UInt32 = 64

    /// The default layout (4096 units, 64 units of buffer).
    public init() {}

    /// Whether links of `highway` are drawn at `zoom`: minor roads only from zoom 13, service
    /// roads from 14, so that low-zoom tiles stay small.
    public static func isDrawn(_ highway: HighwayClass, atZoom zoom: Int) -> Bool {
        switch highway.functionalClass {
        case 1...4: return zoom >= 8
        case 5: return zoom >= 11
        default: return highway == .service ? zoom >= 14 : zoom >= 13
        }
    }

    /// The layer for tile `address` from `network`.
    public func layer(_ address: TileAddress, from network: some RoadNetwork) throws -> VectorTileLayer {
        let margin = Double(buffer)
        let area = GridRectangle(
            minimumX: -margin, minimumY: -margin, maximumX: Double(extent) + margin, maximumY: Double(extent) + margin)
        let northWest = address.point(gridX: area.minimumX, gridY: area.minimumY, extent: extent)
        let southEast = address.point(gridX: area.maximumX, gridY: area.maximumY, extent: extent)
        let centre = GeoPoint(
            latitude: (northWest.latitude + southEast.latitude) / 2,
            longitude: (northWest.longitude + southEast.longitude) / 2)
        let radius = max(centre.distance(to: northWest), centre.distance(to: southEast)) * 1.01
        var layer = VectorTileLayer(name: Self.name, extent: extent)
        for link in try network.links(near: centre, radius: radius)
        where Self.isDrawn(link.highway, atZoom: address.zoom) {
            let grid = link.geometry.map { address.gridPosition($0, extent: extent) }
            let pieces = area.clip(grid).map { piece in
                piece.map { TilePoint(x: Int32($0.x.rounded()), y: Int32($0.y.rounded())) }
            }
            layer.addLines(pieces, id: link.id.rawValue, attributes: Self.attributes(of: link))
        }
        return layer
    }

    /// The attributes written for `link`.
    public static func attributes(of link: RoadLink) -> [String: VectorTileValue] {
        var result: [String: VectorTileValue] = [
            "class": .string(link.highway.osmValue),
            "functional_class": .integer(Int64(link.highway.functionalClass)),
            "oneway": .integer(link.oneway == .forward ? 1 : link.oneway == .backward ? -1 : 0),
        ]
        if let name = link.name { result["name"] = .string(name) }
        if let ref = link.ref { result["ref"] = .string(ref) }
        if let tunnel = link.tunnel { result["tunnel"] = .bool(tunnel) }
        if let bridge = link.bridge { result["bridge"] = .bool(bridge) }
        for direction in [LinkDirection.forward, .backward] where link.oneway.allows(direction) {
            let key = direction == .forward ? "maxspeed_forward" : "maxspeed_backward"
            switch link.attributes(direction).speedLimit.value {
            case .kilometresPerHour(let value): result[key] = .integer(Int64(value.rounded()))
            case .unlimited: result[key] = .string("none")
            case .unknown: break
            }
        }
        return result
    }
}

extension HighwayClass {
    /// The OSM `highway=*` value.
    public var osmValue: String {
        switch self {
        case .motorway: return "motorway"
        case .trunk: return "trunk"
        case .primary: return "primary"
        case .secondary: return "secondary"
        case .tertiary: return "tertiary"
        case .unclassified: return "unclassified"
        case .residential: return "residential"
        case .livingStreet: return "living_street"
        case .service: return "service"
        case .motorwayLink: return "motorway_link"
        case .trunkLink: return "trunk_link"
        case .primaryLink: return "primary_link"
        case .secondaryLink: return "secondary_link"
        case .tertiaryLink: return "tertiary_link"
        }
    }
}

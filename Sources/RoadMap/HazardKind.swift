import Foundation

/// What a hazard warns of: the value of OSM's `hazard=*` tag, with the code this project sends in
/// Value1 of PROFILE SHORT 18 and 19 for a `hazard` road object (`Docs/adasis-conventions.md`,
/// `Tools/adasis-v2.dbc`). Raw values are the codes; they are stored in map tiles.
public enum HazardKind: UInt16, Hashable, Sendable, Codable, CaseIterable {
    /// A `hazard=*` value outside this table.
    case other = 0
    /// Children (`children`).
    case children = 1
    /// A school zone (`school_zone`).
    case schoolZone = 2
    /// Animals crossing, wild or domestic (`animal_crossing`).
    case animalCrossing = 3
    /// A dangerous curve (`curve`, `turn`).
    case curve = 4
    /// A series of curves (`curves`, `turns`).
    case curves = 5
    /// A dangerous junction (`dangerous_junction`).
    case dangerousJunction = 6
    /// Pedestrians (`pedestrians`).
    case pedestrians = 7
    /// Cyclists (`cyclists`).
    case cyclists = 8
    /// Falling rocks (`falling_rocks`).
    case fallingRocks = 9
    /// A slippery road (`slippery`).
    case slippery = 10
    /// Ice (`ice`).
    case ice = 11
    /// Fog (`fog`).
    case fog = 12
    /// Side winds (`side_winds`).
    case sideWinds = 13
    /// The road narrows (`road_narrows`).
    case roadNarrows = 14
    /// A bump (`bump`).
    case bump = 15
    /// A dip (`dip`).
    case dip = 16
    /// Loose gravel (`loose_gravel`).
    case looseGravel = 17
    /// Queues likely (`queues_likely`).
    case queuesLikely = 18
    /// Horse riders (`horse_riders`).
    case horseRiders = 19
    /// Low-flying aircraft (`low_flying_aircraft`).
    case lowFlyingAircraft = 20
    /// A landslide (`landslide`).
    case landslide = 21
    /// Frost heave (`frost_heave`).
    case frostHeave = 22

    /// The OSM value it is written as (the first of its values).
    public var osmValue: String {
        switch self {
        case .other: "other"
        case .children: "children"
        case .schoolZone: "school_zone"
        case .animalCrossing: "animal_crossing"
        case .curve: "curve"
        case .curves: "curves"
        case .dangerousJunction: "dangerous_junction"
        case .pedestrians: "pedestrians"
        case .cyclists: "cyclists"
        case .fallingRocks: "falling_rocks"
        case .slippery: "slippery"
        case .ice: "ice"
        case .fog: "fog"
        case .sideWinds: "side_winds"
        case .roadNarrows: "road_narrows"
        case .bump: "bump"
        case .dip: "dip"
        case .looseGravel: "loose_gravel"
        case .queuesLikely: "queues_likely"
        case .horseRiders: "horse_riders"
        case .lowFlyingAircraft: "low_flying_aircraft"
        case .landslide: "landslide"
        case .frostHeave: "frost_heave"
        }
    }

    /// The kind of a `hazard=*` value: the first of a `;` list that the table knows (case and
    /// surrounding spaces ignored; `turn`/`turns` as `curve`/`curves`), ``other`` when none.
    public init(osm value: String) {
        let known = Dictionary(
            HazardKind.allCases.map { ($0.osmValue, $0) } + [("turn", .curve), ("turns", .curves)],
            uniquingKeysWith: { first, _ in first })
        for part in value.split(separator: ";") {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            if name != "other", let kind = known[name] {
                self = kind
                return
            }
        }
        self = .other
    }
}

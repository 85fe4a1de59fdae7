/// The OSM `highway` class of a road a car may drive on.
public enum HighwayClass: UInt8, Hashable, Sendable, Codable, CaseIterable {
    case motorway, trunk, primary, secondary, tertiary, unclassified, residential
    case livingStreet, service
    case motorwayLink, trunkLink, primaryLink, secondaryLink, tertiaryLink

    /// Functional road class: 1 most important (motorway) … 6 least (service, living street).
    public var functionalClass: UInt8 {
        switch self {
        case .motorway, .motorwayLink: return 1
        case .trunk, .trunkLink: return 2
        case .primary, .primaryLink: return 3
        case .secondary, .secondaryLink: return 4
        case .tertiary, .tertiaryLink, .unclassified: return 5
        case .residential, .livingStreet, .service: return 6
        }
    }

    /// Whether this is a `*_link` (ramp or slip road).
    public var isLink: Bool {
        switch self {
        case .motorwayLink, .trunkLink, .primaryLink, .secondaryLink, .tertiaryLink: return true
        default: return false
        }
    }
}

/// Form of way: the physical kind of road, independent of its importance.
public enum FormOfWay: UInt8, Hashable, Sendable, Codable, CaseIterable {
    case unknown
    /// Controlled-access road (motorway), not a ramp.
    case freeway
    /// Dual carriageway (paired one-ways or `dual_carriageway=yes`).
    case multipleCarriageway
    case singleCarriageway
    case roundabout
    case trafficSquare
    case parallelRoad
    /// Ramp of a freeway (`motorway_link`).
    case freewayRamp
    /// Ramp of another road (`trunk_link`, `primary_link`, …).
    case ramp
    case service
    case carParkAccess
    case serviceAreaAccess
    case pedestrianZone
}

import RoadMap

/// Which OSM ways the importer keeps as car roads, by their `highway` value.
///
/// The default keeps what cars drive on: motorway … residential, living_street, service and
/// the `*_link` ramps. Pass a smaller set (e.g. without ``HighwayClass/service``) to make
/// lighter maps.
public struct RoadSelection: Hashable, Sendable {
    /// The classes kept.
    public var classes: Set<HighwayClass>

    /// Keeps the given classes.
    public init(classes: Set<HighwayClass> = Set(HighwayClass.allCases)) {
        self.classes = classes
    }

    /// The class of a way if the importer keeps it, else `nil` (not a car road, not selected,
    /// or closed to motor vehicles by `access`/`motor_vehicle`/`motorcar=no`, or `area=yes`).
    public func highwayClass(for tags: [String: String]) -> HighwayClass? {
        guard let value = tags["highway"], let highwayClass = HighwayClass(osmValue: value),
            classes.contains(highwayClass)
        else { return nil }
        let closed: Set<String> = ["no", "private"]
        for key in ["motorcar", "motor_vehicle", "vehicle", "access"] {
            if let access = tags[key] {
                if closed.contains(access) { return nil }
                break  // the most specific key that is present decides
            }
        }
        if tags["area"] == "yes" { return nil }
        return highwayClass
    }
}

extension HighwayClass {
    /// The class for an OSM `highway=*` value, or `nil` when it is not a car road class.
    public init?(osmValue: String) {
        switch osmValue {
        case "motorway": self = .motorway
        case "trunk": self = .trunk
        case "primary": self = .primary
        case "secondary": self = .secondary
        case "tertiary": self = .tertiary
        case "unclassified": self = .unclassified
        case "residential": self = .residential
        case "living_street": self = .livingStreet
        case "service": self = .service
        case "motorway_link": self = .motorwayLink
        case "trunk_link": self = .trunkLink
        case "primary_link": self = .primaryLink
        case "secondary_link": self = .secondaryLink
        case "tertiary_link": self = .tertiaryLink
        default: return nil
        }
    }
}

extension FormOfWay {
    /// The form of way that a way's own tags tell (pairing of one-ways into a dual carriageway
    /// needs the neighbouring ways and is done by the graph builder).
    public init(highwayClass: HighwayClass, tags: [String: String]) {
        let junction = tags["junction"]
        if junction == "roundabout" || junction == "circular" {
            self = .roundabout
        } else if highwayClass == .motorwayLink {
            self = .freewayRamp
        } else if highwayClass.isLink {
            self = .ramp
        } else if highwayClass == .motorway {
            self = .freeway
        } else if tags["dual_carriageway"] == "yes" {
            self = .multipleCarriageway
        } else if highwayClass == .service {
            switch tags["service"] {
            case "parking_aisle"?: self = .carParkAccess
            default: self = .service
            }
        } else if highwayClass == .livingStreet {
            self = .pedestrianZone
        } else {
            self = .singleCarriageway
        }
    }
}

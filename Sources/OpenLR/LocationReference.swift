import RoadMap

/// A location reference point (LRP) of an OpenLR line location: a point on the road where the
/// location passes, with the attributes of the line leaving it (OpenLR whitepaper v1.5, §5).
public struct LocationReferencePoint: Hashable, Sendable {
    /// The position (WGS-84), as coded: absolute for the first point, relative for the others.
    public var coordinate: GeoPoint
    /// The bearing sector, 0...31, each 11.25° wide (sector 0 = 0° ..< 11.25° clockwise from north).
    /// For the last point it is the bearing looking back along the location.
    public var bearingSector: UInt8
    /// Functional road class of the line at this point, 0 (most important) ... 7.
    public var functionalRoadClass: UInt8
    /// Form of way of the line at this point.
    public var formOfWay: OpenLRFormOfWay
    /// The lowest (numerically highest) FRC on the path to the next point; `nil` on the last point.
    public var lowestFRCToNextPoint: UInt8?
    /// The distance along the location to the next point in metres, as coded (the middle of a
    /// 58.6 m interval); 0 on the last point.
    public var distanceToNextPoint: Double

    /// Creates a location reference point.
    public init(
        coordinate: GeoPoint, bearingSector: UInt8, functionalRoadClass: UInt8, formOfWay: OpenLRFormOfWay,
        lowestFRCToNextPoint: UInt8?, distanceToNextPoint: Double
    ) {
        self.coordinate = coordinate
        self.bearingSector = bearingSector
        self.functionalRoadClass = functionalRoadClass
        self.formOfWay = formOfWay
        self.lowestFRCToNextPoint = lowestFRCToNextPoint
        self.distanceToNextPoint = distanceToNextPoint
    }

    /// The bearing in degrees at the middle of the coded sector.
    public var bearing: Double { (Double(bearingSector) + 0.5) * OpenLRBinary.bearingSectorWidth }
}

/// An OpenLR line location reference: two or more points and the offsets that trim the path
/// between the first and the last one.
public struct LineLocationReference: Hashable, Sendable {
    /// The points, first to last (at least two).
    public var points: [LocationReferencePoint]
    /// The positive offset as a share (0 ..< 1) of the path between the first and second point.
    public var positiveOffset: Double
    /// The negative offset as a share (0 ..< 1) of the path between the last two points.
    public var negativeOffset: Double

    /// Creates a line location reference.
    public init(points: [LocationReferencePoint], positiveOffset: Double = 0, negativeOffset: Double = 0) {
        self.points = points
        self.positiveOffset = positiveOffset
        self.negativeOffset = negativeOffset
    }
}

/// OpenLR's form of way codes (whitepaper §5.2.3).
public enum OpenLRFormOfWay: UInt8, Hashable, Sendable, CaseIterable {
    case undefined = 0, motorway, multipleCarriageway, singleCarriageway, roundabout, trafficSquare, slipRoad
    case other = 7

    /// The OpenLR code for one of our map's forms of way.
    public init(_ formOfWay: FormOfWay) {
        switch formOfWay {
        case .unknown: self = .undefined
        case .freeway: self = .motorway
        case .multipleCarriageway: self = .multipleCarriageway
        case .singleCarriageway: self = .singleCarriageway
        case .roundabout: self = .roundabout
        case .trafficSquare: self = .trafficSquare
        case .freewayRamp, .ramp: self = .slipRoad
        case .parallelRoad, .service, .carParkAccess, .serviceAreaAccess, .pedestrianZone: self = .other
        }
    }
}

extension RoadLink {
    /// The OpenLR functional road class of the link, 0 (motorway) ... 7 (other), from its highway
    /// class: motorway 0, trunk 1, primary 2, secondary 3, tertiary 4, unclassified and
    /// residential 5, living street and service 6 (ramps take the class of their road).
    public var openLRFunctionalRoadClass: UInt8 {
        switch highway {
        case .motorway, .motorwayLink: return 0
        case .trunk, .trunkLink: return 1
        case .primary, .primaryLink: return 2
        case .secondary, .secondaryLink: return 3
        case .tertiary, .tertiaryLink: return 4
        case .unclassified, .residential: return 5
        case .livingStreet, .service: return 6
        }
    }
}

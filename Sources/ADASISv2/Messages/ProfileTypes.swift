/// ProfileType of a PROFILE SHORT (10-bit spot values); the ones this project sends are listed in
/// `Docs/adasis-conventions.md`.
public enum ProfileShortType: Hashable, Sendable {
    /// Not available (0).
    case notAvailable
    /// Curvature (1), coded by `ValueCoding.curvatureCode(_:)`.
    case curvature
    /// Route number types (2).
    case routeNumberTypes
    /// Slope as a step function (3), coded by `ValueCoding.slopeCode(percent:)`.
    case slopeStep
    /// Slope interpolated linearly between spots (4).
    case slopeLinear
    /// Road accessibility (5).
    case roadAccessibility
    /// Road condition (6).
    case roadCondition
    /// Variable speed sign position (7).
    case variableSpeedSignPosition
    /// Heading change (8).
    case headingChange
    /// Reserved codes 9…15.
    case reserved(UInt8)
    /// System-specific codes 16…31 (this project: 16 safety camera, 17 traffic signals, 18 road
    /// object, 19 road-object zone start, 20 road-object zone end, 21 traffic speed).
    case systemSpecific(UInt8)

    /// This project's safety-camera profile (system-specific 16).
    public static let safetyCamera = ProfileShortType.systemSpecific(16)
    /// This project's traffic-signal profile (system-specific 17).
    public static let trafficSignals = ProfileShortType.systemSpecific(17)
    /// This project's point road object (system-specific 18): Value0 = object type code.
    public static let roadObject = ProfileShortType.systemSpecific(18)
    /// This project's start of a road-object zone (system-specific 19): Value0 = object type code,
    /// Value1 = enforced speed in km/h (1023 none).
    public static let roadObjectZoneStart = ProfileShortType.systemSpecific(19)
    /// This project's end of a road-object zone (system-specific 20): Value0 = object type code.
    public static let roadObjectZoneEnd = ProfileShortType.systemSpecific(20)
    /// This project's traffic speed (system-specific 21): a traffic layer's speed from the spot's
    /// offset on, coded by ``ValueCoding/trafficSpeedCode(_:)`` (km/h, 1021 closed, 1023 no data).
    /// Sent only while a traffic layer is active.
    public static let trafficSpeed = ProfileShortType.systemSpecific(21)

    /// Every one of the 32 codes of the 5-bit field, in code order.
    public static var allCodes: [ProfileShortType] { (0...31).compactMap { ProfileShortType(rawValue: $0) } }
}

extension ProfileShortType: RawRepresentable {
    /// Creates the type of `rawValue`; `nil` above 31 (the field has 5 bits).
    public init?(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .notAvailable
        case 1: self = .curvature
        case 2: self = .routeNumberTypes
        case 3: self = .slopeStep
        case 4: self = .slopeLinear
        case 5: self = .roadAccessibility
        case 6: self = .roadCondition
        case 7: self = .variableSpeedSignPosition
        case 8: self = .headingChange
        case 9...15: self = .reserved(rawValue)
        case 16...31: self = .systemSpecific(rawValue)
        default: return nil
        }
    }

    /// The 5-bit code (an out-of-range associated value is rejected when encoding).
    public var rawValue: UInt8 {
        switch self {
        case .notAvailable: 0
        case .curvature: 1
        case .routeNumberTypes: 2
        case .slopeStep: 3
        case .slopeLinear: 4
        case .roadAccessibility: 5
        case .roadCondition: 6
        case .variableSpeedSignPosition: 7
        case .headingChange: 8
        case .reserved(let code), .systemSpecific(let code): code
        }
    }
}

/// ProfileType of a PROFILE LONG (32-bit value); the ones this project sends are listed in
/// `Docs/adasis-conventions.md`.
public enum ProfileLongType: Hashable, Sendable {
    /// Not available (0).
    case notAvailable
    /// Longitude (1), coded by `ValueCoding.longitudeCode(degrees:)`.
    case longitude
    /// Latitude (2), coded by `ValueCoding.latitudeCode(degrees:)`.
    case latitude
    /// Altitude (3).
    case altitude
    /// Bezier control point longitude (4).
    case controlPointLongitude
    /// Bezier control point latitude (5).
    case controlPointLatitude
    /// Bezier control point altitude (6).
    case controlPointAltitude
    /// Link identifier (7): the low 32 bits of the OSM way id in this project.
    case linkIdentifier
    /// Traffic sign (8).
    case trafficSign
    /// Truck speed limits (9).
    case truckSpeedLimits
    /// Extended lane (10).
    case extendedLane
    /// Reserved codes 11…15.
    case reserved(UInt8)
    /// System-specific codes 16…31.
    case systemSpecific(UInt8)

    /// Every one of the 32 codes of the 5-bit field, in code order.
    public static var allCodes: [ProfileLongType] { (0...31).compactMap { ProfileLongType(rawValue: $0) } }
}

extension ProfileLongType: RawRepresentable {
    /// Creates the type of `rawValue`; `nil` above 31 (the field has 5 bits).
    public init?(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .notAvailable
        case 1: self = .longitude
        case 2: self = .latitude
        case 3: self = .altitude
        case 4: self = .controlPointLongitude
        case 5: self = .controlPointLatitude
        case 6: self = .controlPointAltitude
        case 7: self = .linkIdentifier
        case 8: self = .trafficSign
        case 9: self = .truckSpeedLimits
        case 10: self = .extendedLane
        case 11...15: self = .reserved(rawValue)
        case 16...31: self = .systemSpecific(rawValue)
        default: return nil
        }
    }

    /// The 5-bit code (an out-of-range associated value is rejected when encoding).
    public var rawValue: UInt8 {
        switch self {
        case .notAvailable: 0
        case .longitude: 1
        case .latitude: 2
        case .altitude: 3
        case .controlPointLongitude: 4
        case .controlPointLatitude: 5
        case .controlPointAltitude: 6
        case .linkIdentifier: 7
        case .trafficSign: 8
        case .truckSpeedLimits: 9
        case .extendedLane: 10
        case .reserved(let code), .systemSpecific(let code): code
        }
    }
}

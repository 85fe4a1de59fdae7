import ADASISv2
import Horizon
import RoadMap

/// The object type codes of this project's road-object profiles (PROFILE SHORT 18, 19, 20:
/// Value0), listed in `Docs/adasis-conventions.md`. Codes 1…5 equal the safety-camera types of
/// PROFILE SHORT 16.
public enum RoadObjectWireCode {
    /// The code of `type`.
    public static func code(_ type: RoadObjectType) -> UInt16 {
        switch type {
        case .fixedSpeedCamera: 1
        case .mobileSpeedZone: 2
        case .redLightCamera: 3
        case .averageSpeedZone: 4
        case .restrictionCamera: 5
        case .dangerZone: 6
        case .tunnel: 7
        case .bridge: 8
        case .tollBooth: 9
        case .borderCrossing: 10
        case .railwayCrossing: 11
        case .trafficSignals: 12
        case .incident: 13
        case .userDefined: 14
        case .congestion: 15
        case .hazard: 16
        }
    }

    /// The type of `code`, `nil` for a code this project does not use.
    public static func type(_ code: UInt16) -> RoadObjectType? {
        RoadObjectType.allCases.first { self.code($0) == code }
    }

    /// Value1 of the point mark (18) or zone start (19) of `object`: for a `hazard` its kind
    /// (``RoadMap/HazardKind`` code, 1023 when the map does not say), for every other type the
    /// enforced speed in km/h (1023 none).
    public static func value1(_ object: RoadObject) -> UInt16 {
        if object.type == .hazard { return object.attributes.hazard?.rawValue ?? 1023 }
        return object.attributes.enforcedSpeed.map { UInt16(min(1022, max(0, $0.rounded()))) } ?? 1023
    }

    /// The PROFILE SHORT type and Value0 that carry a point `object` of the map's point features:
    /// cameras on 16 (Value0 = camera type), traffic signals on 17, every other point on 18.
    static func pointProfile(_ type: RoadObjectType) -> ProfileShortType {
        switch type {
        case .fixedSpeedCamera, .mobileSpeedZone, .redLightCamera, .averageSpeedZone, .restrictionCamera:
            .safetyCamera
        case .trafficSignals: .trafficSignals
        default: .roadObject
        }
    }
}

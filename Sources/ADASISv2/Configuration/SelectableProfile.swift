/// A profile type this project produces, named by its configuration key: the key under
/// `[messages.profiles]` in the daemon's configuration file and a value of `replay --profiles`.
public enum SelectableProfile: String, Hashable, Sendable, CaseIterable {
    /// Curvature spots (PROFILE SHORT 1).
    case curvature
    /// Slope, linear between spots (PROFILE SHORT 4).
    case slopeLinear = "slope_linear"
    /// Slope as a step function (PROFILE SHORT 3).
    case slopeStep = "slope_step"
    /// Safety cameras (PROFILE SHORT, system-specific 16).
    case safetyCamera = "safety_camera"
    /// Traffic signals (PROFILE SHORT, system-specific 17).
    case trafficSignals = "traffic_signals"
    /// Point road objects other than cameras and signals (PROFILE SHORT, system-specific 18).
    case roadObjects = "road_objects"
    /// Starts and ends of road-object zones (PROFILE SHORT, system-specific 19 and 20).
    case roadObjectZones = "road_object_zones"
    /// The traffic speed along the paths (PROFILE SHORT, system-specific 21), sent only while a
    /// traffic layer is active.
    case trafficSpeed = "traffic_speed"
    /// Shape-point longitudes (PROFILE LONG 1).
    case longitude
    /// Shape-point latitudes (PROFILE LONG 2).
    case latitude
    /// Link identifiers (PROFILE LONG 7).
    case linkIdentifier = "link_identifier"

    /// The profile type when it is sent in PROFILE SHORT; `nil` for PROFILE LONG types.
    public var shortType: ProfileShortType? {
        switch self {
        case .curvature: .curvature
        case .slopeLinear: .slopeLinear
        case .slopeStep: .slopeStep
        case .safetyCamera: .safetyCamera
        case .trafficSignals: .trafficSignals
        case .roadObjects: .roadObject
        case .roadObjectZones: .roadObjectZoneStart
        case .trafficSpeed: .trafficSpeed
        case .longitude, .latitude, .linkIdentifier: nil
        }
    }

    /// The profile type when it is sent in PROFILE LONG; `nil` for PROFILE SHORT types.
    public var longType: ProfileLongType? {
        switch self {
        case .longitude: .longitude
        case .latitude: .latitude
        case .linkIdentifier: .linkIdentifier
        case .curvature, .slopeLinear, .slopeStep, .safetyCamera, .trafficSignals, .roadObjects, .roadObjectZones,
            .trafficSpeed:
            nil
        }
    }
}

import RoadMap

/// Reads safety cameras from OSM tags: `highway=speed_camera` nodes and `type=enforcement`
/// relations (`enforcement=maxspeed|traffic_signals|average_speed`, and
/// `access|mindistance|maxheight|maxweight` as restriction cameras).
public enum SafetyCameraTags {
    /// The camera type told by a node's or enforcement relation's tags, or `nil` when the tags
    /// do not describe a safety camera.
    public static func cameraType(for tags: [String: String]) -> SafetyCameraType? {
        if tags["type"] == "enforcement" {
            switch tags["enforcement"] {
            case "maxspeed"?: return mobile(tags) ? .mobileSpeed : .fixedSpeed
            case "traffic_signals"?: return .redLight
            case "average_speed"?: return .averageSpeedZone
            case "access"?, "mindistance"?, "maxheight"?, "maxweight"?: return .restriction
            case nil: return .unknown
            default: return nil  // other enforcement (tolls, weight, …) is not a safety camera
            }
        }
        if tags["highway"] == "speed_camera" {
            return mobile(tags) ? .mobileSpeed : .fixedSpeed
        }
        return nil
    }

    /// The camera's enforced limit in km/h from `maxspeed`, if tagged and numeric.
    public static func enforcedLimit(for tags: [String: String]) -> Double? {
        guard let text = tags["maxspeed"], case .kilometresPerHour(let kmh)? = MaxspeedValue(parsing: text) else {
            return nil
        }
        return kmh
    }

    private static func mobile(_ tags: [String: String]) -> Bool {
        tags["mobile"] == "yes" || tags["camera:mount"] == "vehicle"
    }
}

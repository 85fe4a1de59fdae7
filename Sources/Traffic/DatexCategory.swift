/// How a DATEX II situation record's class (`xsi:type`) and its type element map onto the feed's
/// incident categories (TomTom's `iconCategory` codes), `Docs/traffic-feed.md`.
enum DatexCategory {
    /// The category of `record`, whose `xsi:type` is `type`; records that are not about the road
    /// ahead (rerouting advice, speed management, …) are not supported.
    static func category(of record: XMLTree, type: String) throws -> IncidentCategory {
        func value(_ element: String) -> String { record.descendant(element)?.text ?? "" }
        switch type {
        case "Accident":
            return .accident
        case "AbnormalTraffic":
            return .jam
        case "MaintenanceWorks", "ConstructionWorks", "Roadworks":
            return .roadWorks
        case "RoadOrCarriagewayOrLaneManagement":
            switch value("roadOrCarriagewayOrLaneManagementType") {
            case "roadClosed", "carriagewayClosures": return .roadClosed
            case "laneClosures", "narrowLanes", "singleAlternateLineTraffic": return .laneClosed
            default: return .unknown
            }
        case "VehicleObstruction":
            return value("vehicleObstructionType") == "brokenDownVehicle" ? .brokenDownVehicle : .dangerousConditions
        case "PoorEnvironmentConditions":
            let kind = value("poorEnvironmentType")
            if kind.lowercased().contains("fog") { return .fog }
            if kind.lowercased().contains("rain") { return .rain }
            if kind.lowercased().contains("wind") || kind == "gales" { return .wind }
            return .dangerousConditions
        case "WeatherRelatedRoadConditions":
            return value("weatherRelatedRoadConditionType").lowercased().contains("ice") ? .ice : .dangerousConditions
        case "EnvironmentalObstruction":
            return value("environmentalObstructionType") == "flooding" ? .flooding : .dangerousConditions
        case "GeneralObstruction", "AnimalPresenceObstruction", "NonWeatherRelatedRoadConditions":
            return .dangerousConditions
        default:
            throw SkipReason.unsupported("situation record type \(type)")
        }
    }
}

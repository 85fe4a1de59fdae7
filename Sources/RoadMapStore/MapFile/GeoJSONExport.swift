import Foundation
import RoadMap

/// Writes links as GeoJSON features (RFC 7946) for a look in any GIS viewer: one LineString per
/// link with its attributes, one Point per camera and traffic-signal feature.
public enum GeoJSONExport {
    /// The features of one link, each a complete JSON object (no trailing comma).
    public static func features(of link: RoadLink) -> [String] {
        var properties: [(String, String)] = [
            ("link_id", "\(link.id.rawValue)"), ("way_id", "\(link.wayID)"),
            ("highway", quoted("\(link.highway)")), ("form_of_way", quoted("\(link.formOfWay)")),
            ("oneway", quoted("\(link.oneway)")), ("length_m", number(link.length)),
            ("speed_forward", speed(link.forward.speedLimit)),
            ("speed_forward_kind", quoted("\(link.forward.speedLimit.kind)")),
            ("speed_backward", speed(link.backward.speedLimit)),
            ("speed_backward_kind", quoted("\(link.backward.speedLimit.kind)")),
            ("lanes_forward", link.forward.lanes.map { "\($0)" } ?? "null"),
            ("lanes_backward", link.backward.lanes.map { "\($0)" } ?? "null"),
            ("tunnel", flag(link.tunnel)), ("bridge", flag(link.bridge)), ("built_up_area", flag(link.builtUpArea)),
            ("divided_road", flag(link.dividedRoad)), ("country", "\(link.countryCode)"),
        ]
        if let name = link.name { properties.append(("name", quoted(name))) }
        if let ref = link.ref { properties.append(("ref", quoted(ref))) }
        if let sharpest = link.curvature.max(by: { abs($0.value) < abs($1.value) }), sharpest.value != 0 {
            properties.append(("min_radius_m", number(1 / abs(sharpest.value))))
        }
        let coordinates = link.geometry.map { "[\(coordinate($0.longitude)),\(coordinate($0.latitude))]" }.joined(
            separator: ",")
        var result = [
            feature(geometry: "{\"type\":\"LineString\",\"coordinates\":[\(coordinates)]}", properties: properties)
        ]
        for point in link.features {
            guard let position = link.geometry.point(atOffset: point.offset)?.point else { continue }
            var properties: [(String, String)] = [
                ("link_id", "\(link.id.rawValue)"), ("offset_m", number(point.offset)),
                ("direction", point.direction.map { quoted("\($0)") } ?? "null"),
            ]
            switch point.kind {
            case .trafficSignals:
                properties.append(("feature", quoted("traffic_signals")))
            case .safetyCamera(let type, let limit):
                properties.append(("feature", quoted("safety_camera")))
                properties.append(("camera_type", quoted("\(type)")))
                properties.append(("camera_speed_kmh", limit.map(number) ?? "null"))
            case .tollBooth, .borderControl, .railwayCrossing:
                properties.append(("feature", quoted(point.kind.roadObjectType!.rawValue)))
            case .zone(let piece):
                properties.append(("feature", quoted(piece.type.rawValue)))
                properties.append(("zone", "\(piece.zone)"))
                properties.append(("length_m", number(piece.length)))
                properties.append(("zone_start", piece.isZoneStart ? "true" : "false"))
                properties.append(("zone_end", piece.isZoneEnd ? "true" : "false"))
            }
            let geometry =
                "{\"type\":\"Point\",\"coordinates\":[\(coordinate(position.longitude)),\(coordinate(position.latitude))]}"
            result.append(feature(geometry: geometry, properties: properties))
        }
        return result
    }

    /// A whole FeatureCollection of `links`.
    public static func collection(of links: [RoadLink]) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\n" + links.flatMap(features).joined(separator: ",\n") + "\n]}\n"
    }

    private static func feature(geometry: String, properties: [(String, String)]) -> String {
        let body = properties.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",")
        return "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":{\(body)}}"
    }

    private static func speed(_ limit: SpeedLimit) -> String {
        switch limit.value {
        case .unknown: return "null"
        case .unlimited: return quoted("none")
        case .kilometresPerHour(let kmh): return number(kmh)
        }
    }

    private static func flag(_ value: Bool?) -> String { value.map { $0 ? "true" : "false" } ?? "null" }
    private static func number(_ value: Double) -> String { String(format: "%.1f", value) }
    private static func coordinate(_ value: Double) -> String { String(format: "%.7f", value) }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

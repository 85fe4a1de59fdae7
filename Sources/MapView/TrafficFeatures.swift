import Foundation
import HorizonPicture
import RoadMap
import Traffic

/// A traffic layer as GeoJSON for the view: each directed link with flow, shaded in the four
/// display modes (properties `relative`, `absolute`, `relative_delay`, `reduced_sensitivity`:
/// the shade's name, `hidden` when the mode hides it), and the incidents in force on their links.
public enum TrafficFeatures {
    /// The flow of `layer` and its incidents at `time`, on `network`.
    public static func collection(
        _ layer: TrafficLayer, at time: Date, network: some RoadNetwork
    ) throws -> GeoJSONFeatureCollection {
        var features: [GeoJSONFeature] = []
        let flows = layer.isValid(at: time) ? layer.flow.sorted { $0.key < $1.key } : []
        for (link, flow) in flows {
            var properties: [String: GeoJSONFeature.Value] = [
                "kind": .string("flow"), "link": .string(link.description),
                "current_speed_kmh": .number(flow.currentSpeed), "free_flow_kmh": .number(flow.freeFlowSpeed),
                "closed": .bool(flow.closed),
            ]
            for mode in FlowDisplayMode.allCases {
                properties[mode.rawValue.replacingOccurrences(of: "-", with: "_")] = .string(
                    shadeName(mode.shade(of: flow)))
            }
            features.append(GeoJSONFeature(geometry: .line(try shape(link, network)), properties: properties))
        }
        for incident in layer.incidents(at: time) {
            let points = try incident.line.links.flatMap { try shape($0, network) }
            var properties: [String: GeoJSONFeature.Value] = [
                "kind": .string("incident"), "id": .string(incident.record.id),
                "category": .string("\(incident.record.iconCategory)"), "closed": .bool(incident.record.roadClosed),
            ]
            if let delay = incident.record.delay { properties["delay_s"] = .number(delay) }
            features.append(GeoJSONFeature(geometry: .line(points), properties: properties))
        }
        return GeoJSONFeatureCollection(features: features)
    }

    /// The shade as one word for a style: `closed`, `hidden`, a relative band's name, or `kmh_N`.
    static func shadeName(_ shade: FlowShade) -> String {
        switch shade {
        case .hidden: "hidden"
        case .closed: "closed"
        case .relative(let band): band.description
        case .absolute(let from): "kmh_\(from)"
        }
    }

    static func shape(_ link: DirectedLink, _ network: some RoadNetwork) throws -> [GeoPoint] {
        let road = try network.link(link.link)
        return link.direction == .forward ? road.geometry : road.geometry.reversed()
    }
}

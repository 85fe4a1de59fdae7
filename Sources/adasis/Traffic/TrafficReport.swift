import Foundation
import RoadMap
import Traffic

/// The text `adasis traffic show` prints.
struct TrafficReport {
    let layer: TrafficLayer
    let feed: TrafficFeed
    let mode: FlowDisplayMode

    var text: String {
        var lines = [
            "traffic model \(layer.trafficModelID), valid until \(ISO8601DateFormatter().string(from: layer.validUntil))",
            "records: \(feed.flow.count + feed.incidents.count + feed.skipped.count), "
                + "matched \(layer.matched.count), not matched \(layer.skipped.count)",
        ]
        var counts: [String: Int] = [:]
        for skipped in layer.skipped { counts[skipped.reason.name, default: 0] += 1 }
        for (reason, count) in counts.sorted(by: { $0.key < $1.key }) {
            lines.append("  not matched, \(reason): \(count)")
        }
        lines.append("matched:")
        for record in layer.matched {
            let links = record.line.links.map(\.description).joined(separator: " ")
            lines.append(
                "  \(record.position): \(links) (\(Int(record.line.length.rounded())) m, offsets "
                    + "\(Int(record.line.startOffset.rounded())) / \(Int(record.line.endOffset.rounded())) m)")
        }
        lines.append("not matched:")
        for skipped in layer.skipped { lines.append("  \(skipped)") }
        lines.append("flow per link (\(mode.rawValue)):")
        for (link, flow) in layer.flow.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "  \(link): \(Int(flow.currentSpeed.rounded())) / \(Int(flow.freeFlowSpeed.rounded())) km/h, "
                    + "delay \(Int(flow.delay.rounded())) s\(flow.closed ? ", closed" : ""): \(mode.shade(of: flow))")
        }
        lines.append("incidents:")
        for incident in layer.incidents {
            let record = incident.record
            lines.append(
                "  \(record.id) \(record.iconCategory)\(record.roadClosed ? " (road closed)" : ""), delay "
                    + "\(record.delay.map { "\(Int($0)) s" } ?? "unknown"): "
                    + incident.line.links.map(\.description).joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }
}

import Foundation
import OpenLR
import RoadMap

/// A road network with a traffic layer's incidents and congestion laid over the links of another:
/// each incident in force, and each stretch of congested or closed flow, becomes zone pieces of
/// type ``RoadMap/RoadObjectType/incident`` or ``RoadMap/RoadObjectType/congestion`` on the links
/// it covers, in its driving direction only. The horizon then derives, tracks and sends them like
/// the map's own zones (PROFILE SHORT 19/20, `Docs/adasis-conventions.md`). Everything else
/// passes through (``RoadMap/FeatureOverlayNetwork``).
///
/// The overlay is a snapshot of the layer at one time (``init(base:layer:at:)``): incidents that
/// start or end later, and the layer's expiry, need a new overlay.
public final class TrafficObjectOverlay: FeatureOverlayNetwork {
    /// How many road objects (incidents and congested stretches) are laid over the map.
    public let objectCount: Int

    /// `layer`'s incidents in force at `time`, and its congested stretches, laid over `base` (the
    /// network the layer was placed on). An expired layer adds nothing.
    public init(base: any RoadNetwork, layer: TrafficLayer, at time: Date) {
        var features: [LinkID: [PointFeature]] = [:]
        var count = 0
        func lay(_ line: DecodedLine, type: RoadObjectType, zone: Int64, speed: Double?) {
            count += 1
            for (index, directed) in line.links.enumerated() {
                guard let length = try? base.link(directed.link).length else { continue }
                let skippedAtEntry = index == 0 ? line.startOffset : 0
                let skippedAtExit = index == line.links.count - 1 ? line.endOffset : 0
                let along = max(0, length - skippedAtEntry - skippedAtExit)
                // Offsets of a point feature run along the link's geometry, whatever the direction.
                let start = directed.direction == .forward ? skippedAtEntry : skippedAtExit
                let piece = ZonePiece(
                    type: type, zone: zone, length: along, isZoneStart: index == 0,
                    isZoneEnd: index == line.links.count - 1, speedLimit: speed)
                features[directed.link, default: []].append(
                    PointFeature(kind: .zone(piece), offset: start, direction: directed.direction))
            }
        }
        for incident in layer.incidents(at: time) {
            lay(incident.line, type: .incident, zone: Self.zoneNumber("incident:\(incident.record.id)"), speed: nil)
        }
        if layer.isValid(at: time) {
            for stretch in layer.congestion {
                let first = stretch.line.links.first.map { "\($0)" } ?? ""
                let zone = Self.zoneNumber("congestion:\(first)@\(Int(stretch.line.startOffset.rounded()))")
                lay(stretch.line, type: .congestion, zone: zone, speed: stretch.closed ? 0 : stretch.currentSpeed)
            }
        }
        objectCount = count
        super.init(base: base, featuresOfLink: features)
    }

    /// A zone number for a traffic object's key: FNV-1a of the key, kept positive, so the same
    /// incident keeps its identifier from one feed to the next.
    static func zoneNumber(_ key: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int64(hash >> 1)
    }
}

import Foundation
import RoadMap

/// Derives danger zones from the cameras of a road network where the legal rules turn them into
/// danger zones (``SafetyLocationRules/typesBecomingDangerZones(country:region:)``), at run time,
/// as the rules are an input of the horizon and not of the map.
///
/// Each such camera (a point, or the start of a section) becomes a `danger_zone` stretch in each
/// direction it applies to (``DangerZonePolicy``): from the camera back against the driving
/// direction and on along it, following the same road (the same OSM way, else the same `ref`, else
/// the same name, else the only way on) and ending early at a junction where the road cannot be
/// told, at a link already in the zone, or at the border of the camera's country (a zone is the
/// law of the country of its camera). A zone cut shorter than ``DangerZonePolicy/shortestZone(nominal:)``
/// is not made. The legal filter then drops the camera itself where it lies.
///
/// Lazy: a link's zones are found when the horizon first reads a link of its neighbourhood
/// (cells of 0.02°, read once with the cameras within the longest zone around them), so a map
/// without such a country costs one lookup per link. Not thread-safe: one per engine.
public final class DangerZoneDerivation {
    private let network: any RoadNetwork
    private let rules: SafetyLocationRules
    private let places: PlaceCodes
    /// The types that become danger zones somewhere on the map: the only ones looked for.
    private let typesSought: Set<RoadObjectType>
    private var convertedTypes: [UInt32: Set<RoadObjectType>] = [:]
    private var searchedCells: Set<Int64> = []
    private var derivedCameras: Set<String> = []
    private var piecesByLink: [LinkID: [PointFeature]] = [:]
    private static let cellSize = 0.02  // degrees, ≈ 2.2 km of latitude

    /// A derivation over `network` with `rules`, `nil` when no camera of the map's places
    /// (``PlaceCodes/places``; of any place when they are not known) becomes a danger zone.
    public init?(network: any RoadNetwork, rules: SafetyLocationRules, places: PlaceCodes) {
        guard rules.allowsDangerZonesAnywhere else { return nil }
        if let known = places.places {
            typesSought = known.reduce(into: []) {
                $0.formUnion(rules.typesBecomingDangerZones(country: $1.0, region: $1.1))
            }
        } else {
            typesSought = Set(DangerZonePolicy.cameraTypes)
        }
        guard !typesSought.isEmpty else { return nil }
        self.network = network
        self.rules = rules
        self.places = places
    }

    /// `road` with the danger-zone pieces that lie on it added to its features (offset order);
    /// `road` itself where its country makes no danger zones.
    ///
    /// - Throws: the network's error when a link around it cannot be read.
    public func addingDangerZones(to road: RoadLink) throws -> RoadLink {
        guard !convertedTypes(road).isEmpty, let first = road.geometry.first else { return road }
        let slack = 1000.0
        if road.length > slack {
            try deriveZones(near: first, reach: road.length)
        } else {
            let cell = Self.cell(of: first)
            if !searchedCells.contains(cell) {
                let centre = GeoPoint(
                    latitude: (Double(cell >> 32) + 0.5) * Self.cellSize,
                    longitude: (Double(Int32(truncatingIfNeeded: cell)) + 0.5) * Self.cellSize)
                let halfDiagonal = centre.distance(
                    to: GeoPoint(
                        latitude: centre.latitude + Self.cellSize / 2, longitude: centre.longitude + Self.cellSize / 2))
                try deriveZones(near: centre, reach: halfDiagonal + slack)
                searchedCells.insert(cell)
            }
        }
        guard let pieces = piecesByLink[road.id] else { return road }
        var result = road
        result.features = (road.features + pieces).sorted { $0.offset < $1.offset }
        return result
    }

    private static func cell(of point: GeoPoint) -> Int64 {
        let y = Int64((point.latitude / cellSize).rounded(.down))
        let x = Int64((point.longitude / cellSize).rounded(.down))
        return (y << 32) | (x & 0xFFFF_FFFF)
    }

    private func convertedTypes(_ road: RoadLink) -> Set<RoadObjectType> {
        let key = UInt32(road.countryCode) << 16 | UInt32(road.regionCode)
        if let known = convertedTypes[key] { return known }
        let types = rules.typesBecomingDangerZones(
            country: places.country(road.countryCode), region: places.region(road.regionCode))
        convertedTypes[key] = types
        return types
    }

    /// Derives the zones of every converted camera whose zone may reach a link within `reach` of
    /// `point`: a zone runs along its road, so it ends within its length of its camera. Looked for
    /// within the longest zone; those with shorter zones (300 m in a built-up area, 2 km outside)
    /// are left for when the horizon comes near enough, their walks along the road not made now.
    private func deriveZones(near point: GeoPoint, reach: Double) throws {
        let radius = reach + DangerZonePolicy.longestZone
        // Only the links holding a camera or a zone's start of a type sought: the map reads the
        // area's tiles holding one, and keeps none of them
        // (``RoadNetwork/linksWithSafetyLocations(near:radius:of:)``).
        for road in try network.linksWithSafetyLocations(near: point, radius: radius, of: typesSought) {
            let converted = convertedTypes(road)
            guard !converted.isEmpty else { continue }
            // The road's nearest point stands for its cameras: never farther than they are.
            let distance = road.geometry.project(point)?.distance ?? 0
            for feature in road.features {
                guard let type = feature.safetyLocationStartType, converted.contains(type) else { continue }
                let directions = [LinkDirection.forward, .backward].filter {
                    road.oneway.allows($0) && (feature.direction == nil || feature.direction == $0)
                }
                for direction in directions
                where distance <= reach + DangerZonePolicy.zoneLength(on: road, direction: direction) {
                    let key =
                        "\(road.id.rawValue)\(direction == .forward ? "+" : "-")@\(Int((feature.offset * 100).rounded()))"
                    guard derivedCameras.insert(key).inserted else { continue }
                    let along = direction == .forward ? feature.offset : road.length - feature.offset
                    try deriveZone(camera: DirectedLink(road.id, direction), along: along, road: road, key: key)
                }
            }
        }
    }

    /// One stretch of a zone on one directed link: from `from` to `to` metres after its entry.
    private struct Stretch {
        var link: DirectedLink
        var length: Double
        var from: Double
        var to: Double
    }

    private func deriveZone(camera: DirectedLink, along: Double, road: RoadLink, key: String) throws {
        let length = DangerZonePolicy.zoneLength(on: road, direction: camera.direction)
        let (share, zone) = DangerZonePolicy.placement(key: key)
        let country = road.countryCode
        var visited: Set<LinkID> = [camera.link]
        // Back against the driving direction.
        var before: [Stretch] = []
        var remaining = length * share
        var current = camera, currentRoad = road, entry = along
        while true {
            if entry >= remaining {
                before.append(Stretch(link: current, length: currentRoad.length, from: entry - remaining, to: 0))
                break
            }
            before.append(Stretch(link: current, length: currentRoad.length, from: 0, to: 0))
            remaining -= entry
            guard let previous = try continuation(of: current, road: currentRoad, backward: true, country: country),
                visited.insert(previous.link.link).inserted
            else { break }
            current = previous.link
            currentRoad = previous.road
            entry = previous.road.length
        }
        // On along it.
        var after: [Stretch] = []
        remaining = length * (1 - share)
        current = camera
        currentRoad = road
        var exit = road.length - along
        var start = along
        while true {
            if exit >= remaining {
                after.append(Stretch(link: current, length: currentRoad.length, from: start, to: start + remaining))
                break
            }
            after.append(Stretch(link: current, length: currentRoad.length, from: start, to: currentRoad.length))
            remaining -= exit
            guard let next = try continuation(of: current, road: currentRoad, backward: false, country: country),
                visited.insert(next.link.link).inserted
            else { break }
            current = next.link
            currentRoad = next.road
            exit = next.road.length
            start = 0
        }
        // The camera's link is in both lists: join its two parts.
        var stretches = Array(before.reversed())
        stretches[stretches.count - 1].to = after[0].to
        stretches += after.dropFirst()
        // `before` stretches were recorded with `to` = 0 as a placeholder: they run to the link's exit.
        for index in stretches.indices.dropLast() { stretches[index].to = stretches[index].length }
        // Cut short on both sides (a short road between junctions that cannot be told), the zone
        // would all but give the camera's place: then there is no zone, and no camera either.
        let total = stretches.reduce(0) { $0 + max(0, $1.to - $1.from) }
        guard total >= DangerZonePolicy.shortestZone(nominal: length) else { return }
        for (index, stretch) in stretches.enumerated() where stretch.to > stretch.from {
            let forward = stretch.link.direction == .forward
            let piece = ZonePiece(
                type: .dangerZone, zone: zone, length: stretch.to - stretch.from, isZoneStart: index == 0,
                isZoneEnd: index == stretches.count - 1, speedLimit: nil)
            piecesByLink[stretch.link.link, default: []].append(
                PointFeature(
                    kind: .zone(piece), offset: forward ? stretch.from : stretch.length - stretch.to,
                    direction: stretch.link.direction))
        }
    }

    /// The link that continues the same road before (`backward`) or after `link`, in the same
    /// country; `nil` at a junction where no candidate is the same road and there is a choice.
    private func continuation(
        of link: DirectedLink, road: RoadLink, backward: Bool, country: UInt16
    ) throws -> (link: DirectedLink, road: RoadLink)? {
        let node = backward ? road.entryNode(link.direction) : road.exitNode(link.direction)
        let candidates = try (backward ? network.incoming(to: node) : network.successors(of: link))
            .filter { $0.link != link.link }
        var roads: [(link: DirectedLink, road: RoadLink)] = []
        for candidate in candidates.sorted() {
            let next = try network.link(candidate.link)
            if next.countryCode == country { roads.append((candidate, next)) }
        }
        if let same = roads.first(where: { $0.road.wayID == road.wayID }) { return same }
        if let ref = road.ref, let same = roads.first(where: { $0.road.ref == ref }) { return same }
        if let name = road.name, let same = roads.first(where: { $0.road.name == name }) { return same }
        return candidates.count == 1 ? roads.first : nil
    }
}

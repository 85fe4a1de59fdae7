import ADASISProvider
import ADASISv2
import Foundation
import RoadMap

/// Human-readable and GeoJSON views of a reconstructed horizon.
enum ReconstructedHorizonText {
    /// A META-DATA country and region as text: `DE/DEU DE-BY`, `FI/FIN`, `unknown`.
    static func place(_ countryCode: UInt16, _ regionCode: UInt16) -> String {
        guard let country = try? Country(numericCode: countryCode) else { return "unknown" }
        let region = Region(country: country, wireCode: regionCode).map { " \($0.code)" } ?? ""
        return "\(country.alpha2)/\(country.alpha3)\(region)"
    }

    /// A rebuilt road object: `object incident (13): 1234 … 1334 m`, with its value when it has one.
    static func objectLine(_ object: ReconstructedObject) -> String {
        let name = RoadObjectWireCode.type(object.code).map(\.rawValue) ?? "unknown"
        let start = object.start.map { "\($0)" } ?? "(before the path)"
        var line = "object \(name) (\(object.code)): \(start)"
        if !object.isPoint { line += " … " + (object.end.map { "\($0) m" } ?? "(open)") } else { line += " m" }
        if object.value != 1023 {
            if RoadObjectWireCode.type(object.code) == .hazard, let kind = HazardKind(rawValue: object.value) {
                line += ", hazard \(kind.osmValue) (\(object.value))"
            } else {
                line += ", value \(object.value)"
            }
        }
        return line
    }

    static func lines(_ horizon: ReconstructedHorizon) -> [String] {
        var lines: [String] = []
        if let meta = horizon.metaData {
            lines.append(
                "meta-data: country \(meta.countryCode), \(meta.drivingSide == .right ? "right" : "left")-hand traffic, "
                    + "\(meta.speedUnits == .kilometresPerHour ? "km/h" : "mph"), map \(meta.mapYear.map(String.init) ?? "?") Q\(meta.mapVersionQuarter + 1), protocol \(meta.protocolVersion)"
                    + ", place \(place(meta.countryCode, meta.regionCode))"
            )
            if horizon.placeChanges.count > 1 {
                lines.append(
                    "country changes: "
                        + horizon.placeChanges.map {
                            String(format: "%.1f s ", $0.time) + place($0.countryCode, $0.regionCode)
                        }
                        .joined(separator: " → "))
            }
        } else {
            lines.append("meta-data: none received")
        }
        let units = horizon.metaData?.speedUnits ?? .kilometresPerHour
        if let position = horizon.position {
            let message = position.message
            let speed = message.speedMetresPerSecond.map { String(format: "%.1f m/s", $0) } ?? "speed unknown"
            let age = message.ageMilliseconds.map { $0.isFinite ? "\(Int($0)) ms" : "> 2545 ms" } ?? "age invalid"
            lines.append(
                "position: path \(message.pathIndex), offset \(position.absoluteOffset.map(String.init) ?? "invalid") m, \(speed), age \(age)"
            )
        } else {
            lines.append("position: none received")
        }
        if let segment = horizon.currentLinkSegment {
            let limit =
                segment.speedLimitKilometresPerHour(units: units).map { $0.isFinite ? "\(Int($0)) km/h" : "unlimited" }
                ?? "limit unknown"
            lines.append(
                "current link (mini): SEGMENT \(limit) (\(segment.effectiveSpeedLimitType)), class \(segment.functionalRoadClass.rawValue), \(segment.formOfWay)"
            )
        }
        var order: [UInt8] = []
        if let main = horizon.mainPathIndex {
            var queue = [main]
            while let index = queue.first {
                queue.removeFirst()
                order.append(index)
                queue += horizon.subPaths(of: index)
            }
        }
        order += horizon.paths.keys.sorted().filter { !order.contains($0) }
        for index in order {
            guard let path = horizon.paths[index] else { continue }
            var header = "path \(index)"
            if index == horizon.mainPathIndex { header += " (main)" }
            if let parent = path.parent, let offset = path.branchOffset {
                let probability = path.announcingStub?.probabilityPercent.map { String(format: "%.0f %%", $0) } ?? "?"
                header += ": from path \(parent) at \(offset) m, probability \(probability)"
            } else if index != horizon.mainPathIndex {
                header += ": not placed (no STUB or POSITION yet)"
            }
            lines.append(header)
            for (offset, segment) in path.segments.sorted(by: { $0.key < $1.key }) {
                let limit =
                    segment.speedLimitKilometresPerHour(units: units).map {
                        $0.isFinite ? "\(Int($0)) km/h" : "unlimited"
                    } ?? "limit unknown"
                lines.append(
                    "  \(String(format: "%6d", offset)) m  SEGMENT \(limit) (\(segment.effectiveSpeedLimitType)), class \(segment.functionalRoadClass.rawValue), \(segment.formOfWay), lanes \(segment.numberOfLanesDrivingDirection), tunnel \(segment.tunnel), bridge \(segment.bridge)"
                )
            }
            for (offset, stubs) in path.stubs.sorted(by: { $0.key < $1.key }) {
                for stub in stubs {
                    let angle = stub.turnAngleDegrees.map { String(format: "%.0f°", $0) } ?? "?"
                    let probability = stub.probabilityPercent.map { String(format: "%.0f %%", $0) } ?? "?"
                    lines.append(
                        "  \(String(format: "%6d", offset)) m  STUB → \(stub.subPathIndex), turn \(angle), probability \(probability)"
                    )
                }
            }
            for (type, spots) in path.profiles.sorted(by: { "\($0.key)" < "\($1.key)" }) {
                let offsets = spots.keys.sorted()
                lines.append(
                    "  profile \(type): \(spots.count) spots from \(offsets.first ?? 0) to \(offsets.last ?? 0) m")
            }
            let trafficSpeeds = path.trafficSpeedChanges
            if !trafficSpeeds.isEmpty {
                lines.append(
                    "  traffic speed: " + trafficSpeeds.map { "\($0.offset) m \($0.speed)" }.joined(separator: ", "))
            }
            for object in path.objects { lines.append("  " + objectLine(object)) }
        }
        var counters: [String] = []
        for (type, counter) in horizon.counters.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            counters.append("\(type) \(counter.received) (gaps \(counter.gaps))")
        }
        lines.append("received: " + counters.joined(separator: ", "))
        return lines
    }

    /// One feature per path: a LineString through its shape points, or (when it has none) a
    /// MultiLineString of the OSM ways its link-identifier spots name, looked up in `ways`.
    static func geoJSON(_ horizon: ReconstructedHorizon, ways: [Int64: [[GeoPoint]]] = [:]) -> String {
        var features: [String] = []
        for (index, path) in horizon.paths.sorted(by: { $0.key < $1.key }) {
            let main = index == horizon.mainPathIndex
            let properties =
                "\"properties\":{\"path_index\":\(index),\"main\":\(main),\"parent\":\(path.parent.map(String.init) ?? "null")}"
            guard let longitudes = path.profiles[.long(.longitude)], let latitudes = path.profiles[.long(.latitude)]
            else {
                guard let identifiers = path.profiles[.long(.linkIdentifier)] else { continue }
                var lines: [String] = []
                var seen = Set<Int64>()
                for (_, identifier) in identifiers.sorted(by: { $0.key < $1.key }) {
                    let way = Int64(identifier.value)
                    guard seen.insert(way).inserted else { continue }
                    for geometry in ways[way] ?? [] {
                        lines.append(
                            "["
                                + geometry.map { String(format: "[%.7f,%.7f]", $0.longitude, $0.latitude) }.joined(
                                    separator: ",") + "]")
                    }
                }
                guard !lines.isEmpty else { continue }
                features.append(
                    "{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiLineString\",\"coordinates\":[\(lines.joined(separator: ","))]},\(properties)}"
                )
                continue
            }
            var coordinates: [String] = []
            for (offset, longitude) in longitudes.sorted(by: { $0.key < $1.key }) {
                guard let lon = ValueCoding.longitudeDegrees(code: longitude.value),
                    let lat = latitudes[offset].flatMap({ ValueCoding.latitudeDegrees(code: $0.value) })
                else { continue }
                coordinates.append(String(format: "[%.7f,%.7f]", lon, lat))
            }
            guard coordinates.count >= 2 else { continue }
            features.append(
                "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(coordinates.joined(separator: ","))]},\(properties)}"
            )
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}"
    }
}

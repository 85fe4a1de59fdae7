import RoadMap

/// Binary coding of one ``RoadLink`` inside a tile BLOB.
///
/// Layout (all integers LEB128 varints, signed ones zigzag): id, wayID, start node, end node,
/// geometry (delta-coded 1e-7°), length (IEEE bits), highway, form of way, oneway, name, ref
/// (0 = absent, else byte count + 1, then UTF-8), forward and backward attributes (speed-limit
/// kind, value tag 0 unknown / 1 km/h / 2 unlimited [+ IEEE bits], lanes + 1 or 0), the four
/// optional flags tunnel/bridge/built-up/divided (2 bits each: 0 unknown, 1 no, 2 yes),
/// country and region codes, curvature and slope profiles (count, then offset and value IEEE
/// bits), features (count, then kind tag, camera type and limit, offset, direction).
package enum RoadLinkCoding {
    /// Appends `link` to `writer`.
    package static func encode(_ link: RoadLink, into writer: inout TileByteWriter) {
        writer.writeVarint(link.id.rawValue)
        writer.writeSignedVarint(link.wayID)
        writer.writeSignedVarint(link.startNode.rawValue)
        writer.writeSignedVarint(link.endNode.rawValue)
        writer.writeGeometry(link.geometry)
        writer.writeVarint(link.length.bitPattern)
        writer.writeVarint(UInt64(link.highway.rawValue))
        writer.writeVarint(UInt64(link.formOfWay.rawValue))
        writer.writeVarint(UInt64(link.oneway.rawValue))
        writeString(link.name, into: &writer)
        writeString(link.ref, into: &writer)
        for attributes in [link.forward, link.backward] {
            writer.writeVarint(UInt64(attributes.speedLimit.kind.rawValue))
            switch attributes.speedLimit.value {
            case .unknown: writer.writeVarint(0)
            case .kilometresPerHour(let kmh): writer.writeVarint(1); writer.writeVarint(kmh.bitPattern)
            case .unlimited: writer.writeVarint(2)
            }
            writer.writeVarint(attributes.lanes.map { UInt64($0) + 1 } ?? 0)
        }
        var flags: UInt64 = 0
        for (index, flag) in [link.tunnel, link.bridge, link.builtUpArea, link.dividedRoad].enumerated() {
            let code: UInt64 = flag.map { $0 ? 2 : 1 } ?? 0
            flags |= code << (2 * UInt64(index))
        }
        writer.writeVarint(flags)
        writer.writeVarint(UInt64(link.countryCode))
        writer.writeVarint(UInt64(link.regionCode))
        for profile in [link.curvature, link.slope] {
            writer.writeVarint(UInt64(profile.count))
            for point in profile {
                writer.writeVarint(point.offset.bitPattern)
                writer.writeVarint(point.value.bitPattern)
            }
        }
        writer.writeVarint(UInt64(link.features.count))
        for feature in link.features {
            switch feature.kind {
            case .trafficSignals:
                writer.writeVarint(0)
            case .safetyCamera(let type, let limit):
                writer.writeVarint(1)
                writer.writeVarint(UInt64(type.rawValue))
                writer.writeVarint(limit.map { $0.bitPattern } ?? 0)
                writer.writeVarint(limit == nil ? 0 : 1)
            case .tollBooth:
                writer.writeVarint(2)
            case .borderControl:
                writer.writeVarint(3)
            case .railwayCrossing:
                writer.writeVarint(4)
            case .zone(let piece):
                writer.writeVarint(5)
                writer.writeVarint(UInt64(RoadObjectType.allCases.firstIndex(of: piece.type)!))
                writer.writeSignedVarint(piece.zone)
                writer.writeVarint(piece.length.bitPattern)
                writer.writeVarint(
                    (piece.isZoneStart ? 1 : 0) | (piece.isZoneEnd ? 2 : 0) | (piece.speedLimit == nil ? 0 : 4)
                        | (piece.hazard.map { (UInt64($0.rawValue) + 1) << 3 } ?? 0))
                writer.writeVarint(piece.speedLimit.map { $0.bitPattern } ?? 0)
            }
            writer.writeVarint(feature.offset.bitPattern)
            writer.writeVarint(feature.direction.map { UInt64($0.rawValue) + 1 } ?? 0)
        }
    }

    /// Reads one link written by ``encode(_:into:)``.
    package static func decode(from reader: inout TileByteReader) throws(TileDecodingError) -> RoadLink {
        let id = LinkID(try reader.readVarint())
        let wayID = try reader.readSignedVarint()
        let startNode = NodeID(rawValue: try reader.readSignedVarint())
        let endNode = NodeID(rawValue: try reader.readSignedVarint())
        let geometry = try reader.readGeometry()
        let length = Double(bitPattern: try reader.readVarint())
        let highway: HighwayClass = try readEnum("highway", from: &reader)
        let formOfWay: FormOfWay = try readEnum("form of way", from: &reader)
        let oneway: Oneway = try readEnum("oneway", from: &reader)
        let name = try readString(from: &reader)
        let ref = try readString(from: &reader)
        let forward = try readDirectional(from: &reader)
        let backward = try readDirectional(from: &reader)
        let flags = try reader.readVarint()
        func flag(_ index: UInt64) -> Bool? {
            switch (flags >> (2 * index)) & 3 {
            case 1: return false
            case 2: return true
            default: return nil
            }
        }
        let countryCode = UInt16(truncatingIfNeeded: try reader.readVarint())
        let regionCode = UInt16(truncatingIfNeeded: try reader.readVarint())
        let curvature = try readProfile(from: &reader)
        let slope = try readProfile(from: &reader)
        let featureCount = try readCount(minimumBytesEach: 3, from: &reader)
        var features: [PointFeature] = []
        for _ in 0..<featureCount {
            let kindOffset = reader.offset
            let kind: PointFeatureKind
            switch try reader.readVarint() {
            case 0: kind = .trafficSignals
            case 1:
                let type: SafetyCameraType = try readEnum("camera type", from: &reader)
                let bits = try reader.readVarint()
                let hasLimit = try reader.readVarint() == 1
                kind = .safetyCamera(type, speedLimit: hasLimit ? Double(bitPattern: bits) : nil)
            case 2: kind = .tollBooth
            case 3: kind = .borderControl
            case 4: kind = .railwayCrossing
            case 5:
                let typeOffset = reader.offset
                let typeIndex = try reader.readVarint()
                guard typeIndex < RoadObjectType.allCases.count else {
                    throw .invalidValue(field: "zone type", offset: typeOffset)
                }
                let zone = try reader.readSignedVarint()
                let length = Double(bitPattern: try reader.readVarint())
                let flags = try reader.readVarint()
                let bits = try reader.readVarint()
                kind = .zone(
                    ZonePiece(
                        type: RoadObjectType.allCases[Int(typeIndex)], zone: zone, length: length,
                        isZoneStart: flags & 1 != 0, isZoneEnd: flags & 2 != 0,
                        speedLimit: flags & 4 != 0 ? Double(bitPattern: bits) : nil,
                        hazard: flags >> 3 == 0
                            ? nil : HazardKind(rawValue: UInt16(truncatingIfNeeded: (flags >> 3) - 1))))
            default: throw .invalidValue(field: "feature kind", offset: kindOffset)
            }
            let offset = Double(bitPattern: try reader.readVarint())
            let directionOffset = reader.offset
            let directionCode = try reader.readVarint()
            let direction: LinkDirection?
            switch directionCode {
            case 0: direction = nil
            case 1: direction = .forward
            case 2: direction = .backward
            default: throw .invalidValue(field: "feature direction", offset: directionOffset)
            }
            features.append(PointFeature(kind: kind, offset: offset, direction: direction))
        }
        return RoadLink(
            id: id, wayID: wayID, startNode: startNode, endNode: endNode, geometry: geometry,
            length: length, highway: highway, formOfWay: formOfWay, name: name, ref: ref,
            oneway: oneway, forward: forward, backward: backward,
            tunnel: flag(0), bridge: flag(1), builtUpArea: flag(2), dividedRoad: flag(3),
            countryCode: countryCode, regionCode: regionCode, curvature: curvature,
            slope: slope, features: features)
    }

    /// One direction's attributes: speed-limit kind, value tag (+ km/h bits), lanes + 1 or 0.
    private static func readDirectional(from reader: inout TileByteReader) throws(TileDecodingError)
        -> DirectionalAttributes
    {
        let kind: SpeedLimitKind = try readEnum("speed limit kind", from: &reader)
        let valueOffset = reader.offset
        let value: SpeedLimit.Value
        switch try reader.readVarint() {
        case 0: value = .unknown
        case 1: value = .kilometresPerHour(Double(bitPattern: try reader.readVarint()))
        case 2: value = .unlimited
        default: throw .invalidValue(field: "speed limit value", offset: valueOffset)
        }
        let lanesOffset = reader.offset
        let lanesCode = try reader.readVarint()
        guard lanesCode <= 256 else { throw .invalidValue(field: "lanes", offset: lanesOffset) }
        return DirectionalAttributes(
            speedLimit: SpeedLimit(value: value, kind: kind), lanes: lanesCode == 0 ? nil : UInt8(lanesCode - 1))
    }

    /// A profile: count, then offset and value (IEEE bits) of each point.
    private static func readProfile(from reader: inout TileByteReader) throws(TileDecodingError) -> [ProfilePoint] {
        let count = try readCount(minimumBytesEach: 2, from: &reader)
        guard count > 0 else { return [] }
        var points: [ProfilePoint] = []
        points.reserveCapacity(count)
        for _ in 0..<count {
            let offset = Double(bitPattern: try reader.readVarint())
            points.append(ProfilePoint(offset: offset, value: Double(bitPattern: try reader.readVarint())))
        }
        return points
    }

    private static func writeString(_ string: String?, into writer: inout TileByteWriter) {
        guard let string else { writer.writeVarint(0); return }
        let utf8 = Array(string.utf8)
        writer.writeVarint(UInt64(utf8.count) + 1)
        writer.writeBytes(utf8)
    }

    private static func readString(from reader: inout TileByteReader) throws(TileDecodingError) -> String? {
        let offset = reader.offset
        let code = try reader.readVarint()
        guard code > 0 else { return nil }
        guard code - 1 <= UInt64(Int.max) else { throw .implausibleCount(Int.max, offset: offset) }
        let bytes = try reader.readBytes(Int(code - 1))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func readCount(minimumBytesEach: Int, from reader: inout TileByteReader) throws(TileDecodingError)
        -> Int
    {
        let offset = reader.offset
        let count = try reader.readVarint()
        guard count <= UInt64(reader.remainingCount / minimumBytesEach) else {
            throw .implausibleCount(Int(clamping: count), offset: offset)
        }
        return Int(count)
    }

    private static func readEnum<Code: RawRepresentable>(_ field: String, from reader: inout TileByteReader)
        throws(TileDecodingError) -> Code where Code.RawValue == UInt8
    {
        let offset = reader.offset
        let raw = try reader.readVarint()
        guard raw <= UInt64(UInt8.max), let value = Code(rawValue: UInt8(raw)) else {
            throw .invalidValue(field: field, offset: offset)
        }
        return value
    }
}

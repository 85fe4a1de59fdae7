import RoadMap

/// Decoding of the four element messages of a `PrimitiveGroup`.
///
/// `Node{1: id sint64, 2: keys, 3: vals, 4: info, 8: lat sint64, 9: lon sint64}`,
/// `DenseNodes{1: id, 5: denseinfo, 8: lat, 9: lon (packed sint64, delta-coded), 10: keys_vals (0-terminated per node)}`,
/// `Way{1: id, 2: keys, 3: vals, 4: info, 8: refs (packed sint64, delta-coded)}`,
/// `Relation{1: id, 2: keys, 3: vals, 4: info, 8: roles_sid, 9: memids (delta-coded), 10: types}`.
extension PrimitiveBlockDecoder {
    mutating func node(_ buffer: UnsafeRawBufferPointer) throws(WireFormatError) -> OSMNode {
        var reader = ProtobufReader(buffer)
        var id: Int64 = 0, latitude: Int64 = 0, longitude: Int64 = 0
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        while let (field, wireType) = try reader.readFieldKey() {
            switch field {
            case 1, 8, 9:
                try ProtobufReader.expect(wireType, .varint, field: field, in: "Node")
                let value = try reader.readSignedVarint()
                if field == 1 { id = value } else if field == 8 { latitude = value } else { longitude = value }
            case 2: try reader.readRepeatedVarints(wireType, field: field, in: "Node") { keys.append($0) }
            case 3: try reader.readRepeatedVarints(wireType, field: field, in: "Node") { values.append($0) }
            case 4 where wireType == .lengthDelimited: try noteInfo(try reader.readLengthDelimited())
            default: try reader.skip(wireType)
            }
        }
        return OSMNode(
            id: id, latitude: degrees(latitude, offset: latitudeOffset),
            longitude: degrees(longitude, offset: longitudeOffset), tags: try tagsFromScratch(in: "node \(id)"))
    }

    mutating func appendDenseNodes(_ buffer: UnsafeRawBufferPointer, to elements: inout [OSMElement])
        throws(WireFormatError)
    {
        var reader = ProtobufReader(buffer)
        numbers.removeAll(keepingCapacity: true)
        latitudes.removeAll(keepingCapacity: true)
        longitudes.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        var running: Int64 = 0
        while let (field, wireType) = try reader.readFieldKey() {
            switch field {
            case 1, 8, 9:
                running = field == 1 ? (numbers.last ?? 0) : field == 8 ? (latitudes.last ?? 0) : (longitudes.last ?? 0)
                try reader.readRepeatedVarints(wireType, field: field, in: "DenseNodes") {
                    running &+= ProtobufReader.zigzagDecoded($0)
                    if field == 1 {
                        numbers.append(running)
                    } else if field == 8 {
                        latitudes.append(running)
                    } else {
                        longitudes.append(running)
                    }
                }
            case 10: try reader.readRepeatedVarints(wireType, field: field, in: "DenseNodes") { keys.append($0) }
            case 5 where wireType == .lengthDelimited: try noteDenseInfo(try reader.readLengthDelimited())
            default: try reader.skip(wireType)
            }
        }
        guard numbers.count == latitudes.count, numbers.count == longitudes.count else {
            throw WireFormatError(
                "DenseNodes has \(numbers.count) ids, \(latitudes.count) latitudes and \(longitudes.count) longitudes")
        }
        elements.reserveCapacity(elements.count + numbers.count)
        var tagIndex = 0
        for index in numbers.indices {
            var tags: [String: String] = [:]
            while tagIndex < keys.count {
                let key = UInt32(truncatingIfNeeded: keys[tagIndex])
                tagIndex += 1
                if key == 0 { break }
                guard tagIndex < keys.count else {
                    throw WireFormatError(
                        "DenseNodes keys_vals ends after a key without its value (node \(numbers[index]))")
                }
                tags[try string(at: UInt64(key))] = try string(at: UInt64(UInt32(truncatingIfNeeded: keys[tagIndex])))
                tagIndex += 1
            }
            elements.append(
                .node(
                    OSMNode(
                        id: numbers[index],
                        latitude: degrees(latitudes[index], offset: latitudeOffset),
                        longitude: degrees(longitudes[index], offset: longitudeOffset), tags: tags)))
        }
    }

    mutating func way(_ buffer: UnsafeRawBufferPointer) throws(WireFormatError) -> OSMWay {
        var reader = ProtobufReader(buffer)
        var id: Int64 = 0
        var nodeIDs: [Int64] = []
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        while let (field, wireType) = try reader.readFieldKey() {
            switch field {
            case 1:
                try ProtobufReader.expect(wireType, .varint, field: field, in: "Way")
                id = Int64(bitPattern: try reader.readVarint())
            case 2: try reader.readRepeatedVarints(wireType, field: field, in: "Way") { keys.append($0) }
            case 3: try reader.readRepeatedVarints(wireType, field: field, in: "Way") { values.append($0) }
            case 4 where wireType == .lengthDelimited: try noteInfo(try reader.readLengthDelimited())
            case 8:
                var running = nodeIDs.last ?? 0
                try reader.readRepeatedVarints(wireType, field: field, in: "Way") {
                    running &+= ProtobufReader.zigzagDecoded($0)
                    nodeIDs.append(running)
                }
            default: try reader.skip(wireType)
            }
        }
        return OSMWay(id: id, nodeIDs: nodeIDs, tags: try tagsFromScratch(in: "way \(id)"))
    }

    mutating func relation(_ buffer: UnsafeRawBufferPointer) throws(WireFormatError) -> OSMRelation {
        var reader = ProtobufReader(buffer)
        var id: Int64 = 0
        var roles: [UInt64] = []
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
        while let (field, wireType) = try reader.readFieldKey() {
            switch field {
            case 1:
                try ProtobufReader.expect(wireType, .varint, field: field, in: "Relation")
                id = Int64(bitPattern: try reader.readVarint())
            case 2: try reader.readRepeatedVarints(wireType, field: field, in: "Relation") { keys.append($0) }
            case 3: try reader.readRepeatedVarints(wireType, field: field, in: "Relation") { values.append($0) }
            case 4 where wireType == .lengthDelimited: try noteInfo(try reader.readLengthDelimited())
            case 8:
                try reader.readRepeatedVarints(wireType, field: field, in: "Relation") {
                    roles.append(UInt64(UInt32(truncatingIfNeeded: $0)))
                }
            case 9:
                var running = numbers.last ?? 0
                try reader.readRepeatedVarints(wireType, field: field, in: "Relation") {
                    running &+= ProtobufReader.zigzagDecoded($0)
                    numbers.append(running)
                }
            case 10: try reader.readRepeatedVarints(wireType, field: field, in: "Relation") { kinds.append($0) }
            default: try reader.skip(wireType)
            }
        }
        guard roles.count == numbers.count, roles.count == kinds.count else {
            throw WireFormatError(
                "relation \(id) has \(roles.count) roles, \(numbers.count) member ids and \(kinds.count) member types")
        }
        var members: [OSMRelation.Member] = []
        members.reserveCapacity(roles.count)
        for index in roles.indices {
            guard kinds[index] <= 2, let type = OSMRelation.MemberType(rawValue: UInt8(kinds[index])) else {
                throw WireFormatError("relation \(id) has a member of unknown type \(kinds[index])")
            }
            members.append(OSMRelation.Member(type: type, id: numbers[index], role: try string(at: roles[index])))
        }
        return OSMRelation(id: id, members: members, tags: try tagsFromScratch(in: "relation \(id)"))
    }
}

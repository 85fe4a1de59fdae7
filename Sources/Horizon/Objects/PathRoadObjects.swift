import RoadMap

extension HorizonPath {
    /// The road objects of the given types along this path, by start offset (then identifier).
    ///
    /// Derived from the path's links: cameras, traffic signals, toll booths, border controls and
    /// level crossings from the links' point features; tunnels and bridges, one per OSM way, from
    /// the links' attributes; zones (average-speed zones) from their pieces on consecutive links;
    /// a border crossing where the country changes between two links (and none is mapped there).
    /// Only the requested types are computed.
    public func roadObjects(types: Set<RoadObjectType>) -> [PathRoadObject] {
        guard !types.isEmpty, !links.isEmpty else { return [] }
        var result: [PathRoadObject] = []
        let pathID = id
        func point(_ id: String, _ type: RoadObjectType, at offset: Double, speed: Double? = nil) {
            result.append(
                PathRoadObject(
                    object: RoadObject(
                        id: RoadObjectID(rawValue: id), type: type,
                        attributes: RoadObjectAttributes(enforcedSpeed: speed)),
                    path: pathID, start: offset, end: offset))
        }
        var openZones: [Int64: Int] = [:]  // zone → index in result, while its pieces continue
        var stretchTypes: [RoadObjectType] = []
        if types.contains(.tunnel) { stretchTypes.append(.tunnel) }
        if types.contains(.bridge) { stretchTypes.append(.bridge) }
        for (position, link) in links.enumerated() {
            let road = link.link.link.rawValue
            for feature in link.lazyFeatures {
                let along = feature.offset - link.startOffset
                let linkOffset = link.link.direction == .forward ? along : link.length - along
                let place = "L\(road)@\(Int((linkOffset * 100).rounded()))"
                switch feature.kind {
                case .safetyCamera(let camera, let speed):
                    guard let type = RoadObjectType(camera: camera), types.contains(type) else { continue }
                    point("\(type.rawValue):\(place)", type, at: feature.offset, speed: speed)
                case .trafficSignals where types.contains(.trafficSignals):
                    point("traffic_signals:\(place)", .trafficSignals, at: feature.offset)
                case .tollBooth where types.contains(.tollBooth):
                    point("toll_booth:\(place)", .tollBooth, at: feature.offset)
                case .borderControl where types.contains(.borderCrossing):
                    point("border_crossing:\(place)", .borderCrossing, at: feature.offset)
                case .railwayCrossing where types.contains(.railwayCrossing):
                    point("railway_crossing:\(place)", .railwayCrossing, at: feature.offset)
                case .zone(let piece) where types.contains(piece.type):
                    // A piece that reaches the link's end (to rounding) ends exactly there.
                    let reach = feature.offset + piece.length
                    let pieceEnd = reach > link.endOffset - 0.01 ? link.endOffset : reach
                    if let index = openZones[piece.zone], abs(result[index].end - feature.offset) < 0.5 {
                        result[index].end = pieceEnd
                        result[index].isClippedAtEnd = !piece.isZoneEnd && position == links.count - 1
                    } else {
                        result.append(
                            PathRoadObject(
                                object: RoadObject(
                                    id: RoadObjectID(rawValue: "\(piece.type.rawValue):r\(piece.zone)"),
                                    type: piece.type,
                                    attributes: RoadObjectAttributes(
                                        enforcedSpeed: piece.speedLimit, hazard: piece.hazard)),
                                path: id, start: feature.offset, end: pieceEnd,
                                isClippedAtStart: !piece.isZoneStart && position == 0,
                                isClippedAtEnd: !piece.isZoneEnd && position == links.count - 1))
                        openZones[piece.zone] = result.count - 1
                    }
                    if piece.isZoneEnd { openZones[piece.zone] = nil }
                default:
                    continue
                }
            }
            if types.contains(.borderCrossing), position > 0 {
                let before = links[position - 1].attributes.countryCode
                let after = link.attributes.countryCode
                let mapped =
                    link.lazyFeatures.contains { $0.kind == .borderControl && abs($0.offset - link.startOffset) < 50 }
                    || links[position - 1].lazyFeatures.contains {
                        $0.kind == .borderControl && abs($0.offset - link.startOffset) < 50
                    }
                if before != 0, after != 0, before != after, !mapped {
                    point(
                        "border_crossing:L\(road)\(link.link.direction == .forward ? "f" : "b")", .borderCrossing,
                        at: link.startOffset)
                }
            }
        }
        for type in stretchTypes {
            var index = 0
            while index < links.count {
                let link = links[index]
                guard (type == .tunnel ? link.attributes.tunnel : link.attributes.bridge) == true else {
                    index += 1
                    continue
                }
                var last = index
                while last + 1 < links.count, links[last + 1].wayID == link.wayID,
                    (type == .tunnel ? links[last + 1].attributes.tunnel : links[last + 1].attributes.bridge) == true
                {
                    last += 1
                }
                result.append(
                    PathRoadObject(
                        object: RoadObject(
                            id: RoadObjectID(rawValue: "\(type.rawValue):w\(link.wayID)"), type: type,
                            attributes: RoadObjectAttributes()),
                        path: id, start: link.startOffset, end: links[last].endOffset,
                        isClippedAtStart: index == 0, isClippedAtEnd: last == links.count - 1))
                index = last + 1
            }
        }
        return result.sorted { ($0.start, $0.object.id) < ($1.start, $1.object.id) }
    }
}

import RoadMap

/// A road network with custom objects laid over the links of another: each object's pieces become
/// `user_defined` zone pieces on their links, so the horizon derives, tracks and sends them like
/// the map's own zones (``HorizonPath/roadObjects(types:)``). Everything else passes through
/// (``RoadMap/FeatureOverlayNetwork``).
public final class CustomObjectOverlay: FeatureOverlayNetwork {
    /// The client's id of each object that has one, by the object's number.
    private let clientIDs: [Int64: String]

    /// `objects` laid over `base`. A piece on a link `base` cannot read is left out (the link
    /// itself cannot be read through the overlay either).
    public init(base: any RoadNetwork, objects: [PlacedCustomObject]) {
        var features: [LinkID: [PointFeature]] = [:]
        var clientIDs: [Int64: String] = [:]
        for object in objects {
            clientIDs[object.number] = object.id
            for piece in object.pieces {
                guard let length = try? base.link(piece.link).length else { continue }
                features[piece.link, default: []] += Self.features(piece, zone: object.number).map {
                    Self.flags($0, length: length)
                }
            }
        }
        self.clientIDs = clientIDs
        super.init(base: base, featuresOfLink: features)
    }

    /// `objects` with each custom object named by the client's own id (``PlacedCustomObject/id``)
    /// instead of `user_defined:rN`; the others as they are.
    public func namingCustomObjects(_ objects: [PathRoadObject]) -> [PathRoadObject] {
        guard !clientIDs.isEmpty else { return objects }
        let prefix = RoadObjectType.userDefined.rawValue + ":r"
        return objects.map { object in
            guard object.object.type == .userDefined, object.object.id.rawValue.hasPrefix(prefix),
                let number = Int64(object.object.id.rawValue.dropFirst(prefix.count)), let id = clientIDs[number]
            else { return object }
            var named = object
            named.object.id = RoadObjectID(rawValue: id)
            return named
        }
    }

    /// The zone pieces of `piece`, one per direction it applies to (a point is an object of its
    /// own; a stretch's start and end flags are set against its link by ``flags(_:length:)``).
    static func features(_ piece: CustomObjectPiece, zone: Int64) -> [PointFeature] {
        [LinkDirection.forward, .backward].filter { piece.direction == nil || piece.direction == $0 }.map {
            PointFeature(
                kind: .zone(
                    ZonePiece(
                        type: .userDefined, zone: zone, length: piece.end - piece.start, isZoneStart: true,
                        isZoneEnd: true, speedLimit: nil)),
                offset: piece.start, direction: $0)
        }
    }

    /// Sets a zone piece's start and end flags for its driving direction on a link of `length`:
    /// it continues from the previous link when it begins at the link's entry, and into the next
    /// when it reaches the exit.
    static func flags(_ feature: PointFeature, length: Double) -> PointFeature {
        guard case .zone(var piece) = feature.kind, piece.length > 0 else { return feature }
        let start = feature.offset, end = feature.offset + piece.length
        let atEntry = feature.direction == .backward ? end > length - 0.5 : start < 0.5
        let atExit = feature.direction == .backward ? start < 0.5 : end > length - 0.5
        piece.isZoneStart = !atEntry
        piece.isZoneEnd = !atExit
        var result = feature
        result.kind = .zone(piece)
        return result
    }
}

import RoadMap

/// The custom-object interface, `org.adasis.Horizon1.Objects`, exported beside
/// ``RouteBusInterface`` at the same object: the D-Bus equivalents of `adasis objects`
/// (Docs/dbus-api.md describes each method; udev/org.adasis.Horizon1.xml is its introspection).
public enum ObjectsBusInterface {
    /// The interface name.
    public static let name = "org.adasis.Horizon1.Objects"

    /// A matched piece on the wire: link id, direction (`forward`, `backward` or `both`), start
    /// and end in metres from the link's first geometry point.
    static let pieceSignature = "(tsdd)"

    /// Its methods (it has no signals).
    public static let description = BusInterfaceDescription(
        name: name,
        methods: [
            .init(
                "AddObject", inputs: [.init("feature", "s")],
                outputs: [.init("id", "s"), .init("pieces", "a" + pieceSignature)]),
            .init("RemoveObject", inputs: [.init("id", "s")]),
            .init("ClearObjects", outputs: [.init("removed", "u")]),
            .init("ListObjects", outputs: [.init("objects", "a(ssa\(pieceSignature))")]),
        ],
        signals: [])

    /// Decodes a call of one of the interface's methods (its signature already checked by sd-bus).
    static func request(_ call: BusMethodCall) throws(BusError) -> ObjectRequest? {
        let arguments = call.arguments
        switch call.member {
        case "AddObject": return .add(feature: try arguments.readString())
        case "RemoveObject": return .remove(id: try arguments.readString())
        case "ClearObjects": return .clear
        case "ListObjects": return .list
        default: return nil
        }
    }

    /// Writes the reply to a request that succeeded.
    static func write(_ reply: ObjectReply, to writer: BusMessageWriter) throws(BusError) {
        switch reply {
        case .added(let id, let pieces):
            try writer.append(id)
            try append(pieces, to: writer)
        case .removed: break
        case .cleared(let count): try writer.append(UInt32(clamping: count))
        case .objects(let objects):
            try writer.appendArray("(ssa\(pieceSignature))", objects) { (writer, object) throws(BusError) in
                try writer.appendStruct("ssa\(pieceSignature)") { (fields) throws(BusError) in
                    try fields.append(object.id)
                    try fields.append(object.geometry)
                    try append(object.pieces, to: fields)
                }
            }
        }
    }

    private static func append(_ pieces: [CustomObjectPiece], to writer: BusMessageWriter) throws(BusError) {
        try writer.appendArray(pieceSignature, pieces) { (writer, piece) throws(BusError) in
            try writer.appendStruct("tsdd") { (fields) throws(BusError) in
                try fields.append(piece.link.rawValue)
                try fields.append(piece.direction.map { $0 == .forward ? "forward" : "backward" } ?? "both")
                try fields.append(piece.start)
                try fields.append(piece.end)
            }
        }
    }
}

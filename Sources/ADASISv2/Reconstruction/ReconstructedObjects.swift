/// A road-object profile spot as received (PROFILE SHORT 18, 19 or 20, see `Docs/adasis-conventions.md`).
public struct ObjectMark: Hashable, Sendable {
    /// What the spot marks.
    public enum Kind: UInt8, Hashable, Sendable, Comparable {
        /// The end of a zone (type 20); sorted first, so a zone ending where the next begins closes
        /// before the next opens.
        case zoneEnd
        /// A point object (type 18).
        case point
        /// The start of a zone (type 19).
        case zoneStart

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }
    /// Point, zone start or zone end.
    public var kind: Kind
    /// Absolute offset on the path.
    public var offset: Int
    /// The object type code (Value0).
    public var code: UInt16

    /// Creates a mark.
    public init(kind: Kind, offset: Int, code: UInt16) {
        self.kind = kind
        self.offset = offset
        self.code = code
    }

    /// The kind a PROFILE SHORT type carries, `nil` for other profile types.
    public static func kind(of type: ProfileShortType) -> Kind? {
        switch type {
        case .roadObject: .point
        case .roadObjectZoneStart: .zoneStart
        case .roadObjectZoneEnd: .zoneEnd
        default: nil
        }
    }
}

/// A road object rebuilt from its marks: a point, or a zone from its start to its end.
public struct ReconstructedObject: Hashable, Sendable {
    /// The object type code.
    public var code: UInt16
    /// Absolute offset of the start; `nil` for a zone whose start is not held (it began before
    /// what the receiver holds of the path).
    public var start: Int?
    /// Absolute offset of the end; `nil` for a zone whose end has not been sent yet (it runs past
    /// the horizon).
    public var end: Int?
    /// Value1 of the point or zone start: the enforced speed in km/h, 1023 none.
    public var value: UInt16
    /// Whether it is a point object (type 18) rather than a zone.
    public var isPoint: Bool
}

extension ReconstructedPath {
    /// The road objects of the path, by start (zones without a start first): each zone start is
    /// paired with the next zone end of the same type code; an end sorts before a start at the
    /// same offset, and a start while a zone of its code is open is ignored.
    public var objects: [ReconstructedObject] {
        var result: [ReconstructedObject] = []
        var open: [UInt16: [Int]] = [:]  // code → indices in result of zones not yet closed
        for (mark, value) in objectMarks.sorted(by: { ($0.key.offset, $0.key.kind) < ($1.key.offset, $1.key.kind) }) {
            switch mark.kind {
            case .point:
                result.append(
                    ReconstructedObject(
                        code: mark.code, start: mark.offset, end: mark.offset, value: value, isPoint: true))
            case .zoneStart:
                // A start while a zone of this code is open repeats its start (a path that lost
                // its first links sends the zone's start again where it now begins).
                guard open[mark.code, default: []].isEmpty else { continue }
                result.append(
                    ReconstructedObject(code: mark.code, start: mark.offset, end: nil, value: value, isPoint: false))
                open[mark.code, default: []].append(result.count - 1)
            case .zoneEnd:
                if let first = open[mark.code]?.first {
                    result[first].end = mark.offset
                    open[mark.code]!.removeFirst()
                } else {
                    result.append(
                        ReconstructedObject(code: mark.code, start: nil, end: mark.offset, value: 1023, isPoint: false))
                }
            }
        }
        return result.sorted { ($0.start ?? Int.min, $0.code) < ($1.start ?? Int.min, $1.code) }
    }
}

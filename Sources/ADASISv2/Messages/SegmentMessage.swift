/// SEGMENT (type 2): the road attributes valid from `offset` on a path until the next SEGMENT.
public struct SegmentMessage: Hashable, Sendable {
    /// Offset in metres from the path start, modulo 8191 (8191 = invalid).
    public var offset: UInt16
    /// Cyclic counter of SEGMENT messages, 0…3.
    public var cyclicCounter: UInt8
    /// Path 8…63 (4 = the "current link" of ADASIS v2 mini).
    public var pathIndex: UInt8
    /// Whether the road is in a tunnel.
    public var tunnel: YesNo
    /// Whether the road is on a bridge.
    public var bridge: YesNo
    /// Whether the road is in a built-up area.
    public var builtUpArea: YesNo
    /// Retransmission: this content was already sent.
    public var isRetransmission: Bool
    /// Update: replaces what was sent before for the same path and offset.
    public var isUpdate: Bool
    /// RelativeProbability code of the path (raw × 100/30 %; 0 unknown, 31 N/A).
    public var relativeProbability: UInt8
    /// Functional road class.
    public var functionalRoadClass: FunctionalRoadClass
    /// Whether the road is part of the calculated route.
    public var partOfCalculatedRoute: YesNo
    /// Whether the road is part of a complex intersection.
    public var complexIntersection: YesNo
    /// Form of way.
    public var formOfWay: FormOfWay
    /// EffectiveSpeedLimit code in the META-DATA units; see `ValueCoding.speedLimit(code:)`.
    public var effectiveSpeedLimit: UInt8
    /// Where the effective speed limit comes from.
    public var effectiveSpeedLimitType: SpeedLimitType
    /// Whether the road is divided.
    public var dividedRoad: YesNo
    /// Lanes in the opposite direction: 0 one-way road, 1 one lane, 2 two or more, 3 N/A.
    public var numberOfLanesOppositeDirection: UInt8
    /// Lanes in the driving direction: 0 one-way driven the wrong way, 1…5, 6 six or more, 7 N/A.
    public var numberOfLanesDrivingDirection: UInt8

    /// Creates a SEGMENT; unspecified attributes are "unknown"/"N/A".
    public init(
        offset: UInt16, pathIndex: UInt8, cyclicCounter: UInt8 = 0, tunnel: YesNo = .unknown,
        bridge: YesNo = .unknown, builtUpArea: YesNo = .unknown, isRetransmission: Bool = false,
        isUpdate: Bool = false, relativeProbability: UInt8 = 31,
        functionalRoadClass: FunctionalRoadClass = .unknown, partOfCalculatedRoute: YesNo = .unknown,
        complexIntersection: YesNo = .unknown, formOfWay: FormOfWay = .unknown,
        effectiveSpeedLimit: UInt8 = 0, effectiveSpeedLimitType: SpeedLimitType = .unknown,
        dividedRoad: YesNo = .unknown, numberOfLanesOppositeDirection: UInt8 = 3,
        numberOfLanesDrivingDirection: UInt8 = 7
    ) {
        self.offset = offset
        self.cyclicCounter = cyclicCounter
        self.pathIndex = pathIndex
        self.tunnel = tunnel
        self.bridge = bridge
        self.builtUpArea = builtUpArea
        self.isRetransmission = isRetransmission
        self.isUpdate = isUpdate
        self.relativeProbability = relativeProbability
        self.functionalRoadClass = functionalRoadClass
        self.partOfCalculatedRoute = partOfCalculatedRoute
        self.complexIntersection = complexIntersection
        self.formOfWay = formOfWay
        self.effectiveSpeedLimit = effectiveSpeedLimit
        self.effectiveSpeedLimitType = effectiveSpeedLimitType
        self.dividedRoad = dividedRoad
        self.numberOfLanesOppositeDirection = numberOfLanesOppositeDirection
        self.numberOfLanesDrivingDirection = numberOfLanesDrivingDirection
    }

    /// The effective speed limit in km/h given the META-DATA units; `nil` when unknown or N/A,
    /// `.infinity` when unlimited or above 150.
    public func speedLimitKilometresPerHour(units: SpeedUnits) -> Double? {
        ValueCoding.speedLimitKilometresPerHour(code: effectiveSpeedLimit, units: units)
    }

    /// Probability of the path in percent; `nil` when unknown or N/A.
    public var probabilityPercent: Double? { ValueCoding.probabilityPercent(code: relativeProbability) }
}

extension SegmentMessage: FieldMappedMessage {
    static var messageType: MessageType { .segment }

    func writeFields(_ write: (StaticString, UInt64) throws(FieldCodingError) -> Void) throws(FieldCodingError) {
        try write("Offset", UInt64(offset))
        try write("CyclicCounter", UInt64(cyclicCounter))
        try write("PathIndex", UInt64(pathIndex))
        try write("Tunnel", UInt64(tunnel.rawValue))
        try write("Bridge", UInt64(bridge.rawValue))
        try write("BuiltUpArea", UInt64(builtUpArea.rawValue))
        try write("Retransmission", isRetransmission.fieldValue)
        try write("Update", isUpdate.fieldValue)
        try write("RelativeProbability", UInt64(relativeProbability))
        try write("FunctionalRoadClass", UInt64(functionalRoadClass.rawValue))
        try write("PartOfCalculatedRoute", UInt64(partOfCalculatedRoute.rawValue))
        try write("ComplexIntersection", UInt64(complexIntersection.rawValue))
        try write("FormOfWay", UInt64(formOfWay.rawValue))
        try write("EffectiveSpeedLimit", UInt64(effectiveSpeedLimit))
        try write("EffectiveSpeedLimitType", UInt64(effectiveSpeedLimitType.rawValue))
        try write("DividedRoad", UInt64(dividedRoad.rawValue))
        try write("NumberOfLanesOppositeDirection", UInt64(numberOfLanesOppositeDirection))
        try write("NumberOfLanesDrivingDirection", UInt64(numberOfLanesDrivingDirection))
    }

    init(fields: UnpackedFields) throws(FieldCodingError) {
        self.init(
            offset: try fields.integer("Offset"), pathIndex: try fields.integer("PathIndex"),
            cyclicCounter: try fields.integer("CyclicCounter"), tunnel: try fields.enumeration("Tunnel"),
            bridge: try fields.enumeration("Bridge"), builtUpArea: try fields.enumeration("BuiltUpArea"),
            isRetransmission: fields.flag("Retransmission"), isUpdate: fields.flag("Update"),
            relativeProbability: try fields.integer("RelativeProbability"),
            functionalRoadClass: try fields.enumeration("FunctionalRoadClass"),
            partOfCalculatedRoute: try fields.enumeration("PartOfCalculatedRoute"),
            complexIntersection: try fields.enumeration("ComplexIntersection"),
            formOfWay: try fields.enumeration("FormOfWay"),
            effectiveSpeedLimit: try fields.integer("EffectiveSpeedLimit"),
            effectiveSpeedLimitType: try fields.enumeration("EffectiveSpeedLimitType"),
            dividedRoad: try fields.enumeration("DividedRoad"),
            numberOfLanesOppositeDirection: try fields.integer("NumberOfLanesOppositeDirection"),
            numberOfLanesDrivingDirection: try fields.integer("NumberOfLanesDrivingDirection"))
    }
}

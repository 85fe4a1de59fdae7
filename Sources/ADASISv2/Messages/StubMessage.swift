/// STUB (type 3): a road leaving the parent path at `offset`, opening a sub-path or only marking it.
public struct StubMessage: Hashable, Sendable {
    /// Offset of the junction on the parent path in metres, modulo 8191 (8191 = invalid).
    public var offset: UInt16
    /// Cyclic counter of STUB messages, 0…3.
    public var cyclicCounter: UInt8
    /// The parent path, 8…63.
    public var pathIndex: UInt8
    /// The sub-path this stub opens: 8…63 a regular path; 5 stub only (nothing follows);
    /// 6 continuation stub of the parent path.
    public var subPathIndex: UInt8
    /// Retransmission: this content was already sent.
    public var isRetransmission: Bool
    /// Update: replaces what was sent before for the same stub.
    public var isUpdate: Bool
    /// RelativeProbability code of taking this road (raw × 100/30 %; 1 = legal but unlikely).
    public var relativeProbability: UInt8
    /// Functional road class of the leaving road.
    public var functionalRoadClass: FunctionalRoadClass
    /// Whether the leaving road is part of the calculated route.
    public var partOfCalculatedRoute: YesNo
    /// Whether the junction is a complex intersection.
    public var complexIntersection: YesNo
    /// Form of way of the leaving road.
    public var formOfWay: FormOfWay
    /// TurnAngle code (raw × 360/254 ° clockwise; 254 unknown, 255 invalid); see `turnAngleDegrees`.
    public var turnAngle: UInt8
    /// Whether this is the last STUB sent for this offset.
    public var isLastStubAtOffset: Bool
    /// Right of way of the leaving road.
    public var rightOfWay: RightOfWay
    /// Lanes in the opposite direction: 0 one-way road, 1 one lane, 2 two or more, 3 N/A.
    public var numberOfLanesOppositeDirection: UInt8
    /// Lanes in the driving direction: 0 one-way driven the wrong way, 1…5, 6 six or more, 7 N/A.
    public var numberOfLanesDrivingDirection: UInt8

    /// Creates a STUB; unspecified attributes are "unknown"/"N/A".
    public init(
        offset: UInt16, pathIndex: UInt8, subPathIndex: UInt8, cyclicCounter: UInt8 = 0,
        isRetransmission: Bool = false, isUpdate: Bool = false, relativeProbability: UInt8 = 31,
        functionalRoadClass: FunctionalRoadClass = .unknown, partOfCalculatedRoute: YesNo = .unknown,
        complexIntersection: YesNo = .unknown, formOfWay: FormOfWay = .unknown, turnAngle: UInt8 = 254,
        isLastStubAtOffset: Bool = true, rightOfWay: RightOfWay = .unknown,
        numberOfLanesOppositeDirection: UInt8 = 3, numberOfLanesDrivingDirection: UInt8 = 7
    ) {
        self.offset = offset
        self.cyclicCounter = cyclicCounter
        self.pathIndex = pathIndex
        self.subPathIndex = subPathIndex
        self.isRetransmission = isRetransmission
        self.isUpdate = isUpdate
        self.relativeProbability = relativeProbability
        self.functionalRoadClass = functionalRoadClass
        self.partOfCalculatedRoute = partOfCalculatedRoute
        self.complexIntersection = complexIntersection
        self.formOfWay = formOfWay
        self.turnAngle = turnAngle
        self.isLastStubAtOffset = isLastStubAtOffset
        self.rightOfWay = rightOfWay
        self.numberOfLanesOppositeDirection = numberOfLanesOppositeDirection
        self.numberOfLanesDrivingDirection = numberOfLanesDrivingDirection
    }

    /// Turn angle in degrees clockwise from the parent path; `nil` when unknown or invalid.
    public var turnAngleDegrees: Double? { ValueCoding.angleDegrees(code: turnAngle) }
    /// Probability of taking this road in percent; `nil` when unknown or N/A.
    public var probabilityPercent: Double? { ValueCoding.probabilityPercent(code: relativeProbability) }
}

extension StubMessage: FieldMappedMessage {
    static var messageType: MessageType { .stub }

    func writeFields(_ write: (StaticString, UInt64) throws(FieldCodingError) -> Void) throws(FieldCodingError) {
        try write("Offset", UInt64(offset))
        try write("CyclicCounter", UInt64(cyclicCounter))
        try write("PathIndex", UInt64(pathIndex))
        try write("SubPathIndex", UInt64(subPathIndex))
        try write("Retransmission", isRetransmission.fieldValue)
        try write("Update", isUpdate.fieldValue)
        try write("RelativeProbability", UInt64(relativeProbability))
        try write("FunctionalRoadClass", UInt64(functionalRoadClass.rawValue))
        try write("PartOfCalculatedRoute", UInt64(partOfCalculatedRoute.rawValue))
        try write("ComplexIntersection", UInt64(complexIntersection.rawValue))
        try write("FormOfWay", UInt64(formOfWay.rawValue))
        try write("TurnAngle", UInt64(turnAngle))
        try write("LastStubAtOffset", isLastStubAtOffset.fieldValue)
        try write("RightOfWay", UInt64(rightOfWay.rawValue))
        try write("NumberOfLanesOppositeDirection", UInt64(numberOfLanesOppositeDirection))
        try write("NumberOfLanesDrivingDirection", UInt64(numberOfLanesDrivingDirection))
    }

    init(fields: UnpackedFields) throws(FieldCodingError) {
        self.init(
            offset: try fields.integer("Offset"), pathIndex: try fields.integer("PathIndex"),
            subPathIndex: try fields.integer("SubPathIndex"), cyclicCounter: try fields.integer("CyclicCounter"),
            isRetransmission: fields.flag("Retransmission"), isUpdate: fields.flag("Update"),
            relativeProbability: try fields.integer("RelativeProbability"),
            functionalRoadClass: try fields.enumeration("FunctionalRoadClass"),
            partOfCalculatedRoute: try fields.enumeration("PartOfCalculatedRoute"),
            complexIntersection: try fields.enumeration("ComplexIntersection"),
            formOfWay: try fields.enumeration("FormOfWay"), turnAngle: try fields.integer("TurnAngle"),
            isLastStubAtOffset: fields.flag("LastStubAtOffset"),
            rightOfWay: try fields.enumeration("RightOfWay"),
            numberOfLanesOppositeDirection: try fields.integer("NumberOfLanesOppositeDirection"),
            numberOfLanesDrivingDirection: try fields.integer("NumberOfLanesDrivingDirection"))
    }
}

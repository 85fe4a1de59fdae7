/// POSITION (type 1): where the vehicle is on the horizon, sent every ~100 ms.
public struct PositionMessage: Hashable, Sendable {
    /// Offset of the vehicle on its path in metres, modulo 8191 (8191 = invalid).
    public var offset: UInt16
    /// Cyclic counter of POSITION messages, 0…3.
    public var cyclicCounter: UInt8
    /// Path the vehicle is on: 8…63 a regular path; 0 unknown, 1 not in digitised area,
    /// 2 not on road, 3 positioning not calibrated.
    public var pathIndex: UInt8
    /// Candidate index 0…3 when several positions are sent (0 = the primary one).
    public var positionIndex: UInt8
    /// PositionProbability code (raw × 100/30 %; 0 unknown, 31 N/A); see `probabilityPercent`.
    public var positionProbability: UInt8
    /// PositionAge code (raw × 5 ms; 510 older than 2545 ms, 511 invalid); see `ageMilliseconds`.
    public var positionAge: UInt16
    /// PositionConfidence: 0 highest … 6 lowest, 7 N/A.
    public var positionConfidence: UInt8
    /// The lane the vehicle drives in.
    public var currentLane: CurrentLane
    /// Speed code (raw × 0.2 − 12.8 m/s; 64 standing still, 511 invalid); see `speedMetresPerSecond`.
    public var speed: UInt16
    /// RelativeHeading code (raw × 360/254 ° clockwise from the path direction; 254 unknown,
    /// 255 invalid); see `headingDegrees`.
    public var relativeHeading: UInt8

    /// Creates a POSITION; unspecified fields are "unknown"/"N/A" except the probability (100 %).
    public init(
        offset: UInt16, pathIndex: UInt8, cyclicCounter: UInt8 = 0, positionIndex: UInt8 = 0,
        positionProbability: UInt8 = 30, positionAge: UInt16 = 0, positionConfidence: UInt8 = 7,
        currentLane: CurrentLane = .unknown, speed: UInt16 = 511, relativeHeading: UInt8 = 0
    ) {
        self.offset = offset
        self.cyclicCounter = cyclicCounter
        self.pathIndex = pathIndex
        self.positionIndex = positionIndex
        self.positionProbability = positionProbability
        self.positionAge = positionAge
        self.positionConfidence = positionConfidence
        self.currentLane = currentLane
        self.speed = speed
        self.relativeHeading = relativeHeading
    }

    /// Speed in m/s; `nil` when invalid.
    public var speedMetresPerSecond: Double? { ValueCoding.speed(code: speed) }
    /// Age of the position in ms; `.infinity` when older than 2545 ms, `nil` when invalid.
    public var ageMilliseconds: Double? { ValueCoding.positionAgeMilliseconds(code: positionAge) }
    /// Heading relative to the path in degrees clockwise; `nil` when unknown or invalid.
    public var headingDegrees: Double? { ValueCoding.angleDegrees(code: relativeHeading) }
    /// Probability of this position in percent; `nil` when unknown or N/A.
    public var probabilityPercent: Double? { ValueCoding.probabilityPercent(code: positionProbability) }
}

extension PositionMessage: FieldMappedMessage {
    static var messageType: MessageType { .position }

    func writeFields(_ write: (StaticString, UInt64) throws(FieldCodingError) -> Void) throws(FieldCodingError) {
        try write("Offset", UInt64(offset))
        try write("CyclicCounter", UInt64(cyclicCounter))
        try write("PathIndex", UInt64(pathIndex))
        try write("PositionIndex", UInt64(positionIndex))
        try write("PositionProbability", UInt64(positionProbability))
        try write("PositionAge", UInt64(positionAge))
        try write("PositionConfidence", UInt64(positionConfidence))
        try write("CurrentLane", UInt64(currentLane.rawValue))
        try write("Speed", UInt64(speed))
        try write("RelativeHeading", UInt64(relativeHeading))
    }

    init(fields: UnpackedFields) throws(FieldCodingError) {
        self.init(
            offset: try fields.integer("Offset"), pathIndex: try fields.integer("PathIndex"),
            cyclicCounter: try fields.integer("CyclicCounter"), positionIndex: try fields.integer("PositionIndex"),
            positionProbability: try fields.integer("PositionProbability"),
            positionAge: try fields.integer("PositionAge"),
            positionConfidence: try fields.integer("PositionConfidence"),
            currentLane: try fields.enumeration("CurrentLane"), speed: try fields.integer("Speed"),
            relativeHeading: try fields.integer("RelativeHeading"))
    }
}

/// PROFILE SHORT (type 4): one or two 10-bit spots of a profile (curvature, slope, …) on a path.
public struct ProfileShortMessage: Hashable, Sendable {
    /// Offset of the first spot (Value0) in metres from the path start, modulo 8191 (8191 = invalid).
    public var offset: UInt16
    /// Cyclic counter of PROFILE SHORT messages, 0…3.
    public var cyclicCounter: UInt8
    /// Path 8…63.
    public var pathIndex: UInt8
    /// What the values describe.
    public var profileType: ProfileShortType
    /// Whether the spots are control points (of a curve) rather than values.
    public var isControlPoint: Bool
    /// Retransmission: this content was already sent.
    public var isRetransmission: Bool
    /// Update: replaces what was sent before for the same path, offset and profile type.
    public var isUpdate: Bool
    /// Accuracy of the values.
    public var accuracy: ProfileAccuracy
    /// Metres from `offset` to the second spot (Value1): 0 = only Value0 is defined, 1023 invalid.
    public var distance1: UInt16
    /// First spot value (1023 = unknown/N/A), coded per `profileType`.
    public var value0: UInt16
    /// Second spot value (1023 = unknown/N/A), at `offset + distance1`.
    public var value1: UInt16

    /// Creates a PROFILE SHORT; by default a single spot (`distance1` 0, `value1` unknown).
    public init(
        offset: UInt16, pathIndex: UInt8, profileType: ProfileShortType, value0: UInt16,
        distance1: UInt16 = 0, value1: UInt16 = 1023, cyclicCounter: UInt8 = 0,
        isControlPoint: Bool = false, isRetransmission: Bool = false, isUpdate: Bool = false,
        accuracy: ProfileAccuracy = .unknown
    ) {
        self.offset = offset
        self.cyclicCounter = cyclicCounter
        self.pathIndex = pathIndex
        self.profileType = profileType
        self.isControlPoint = isControlPoint
        self.isRetransmission = isRetransmission
        self.isUpdate = isUpdate
        self.accuracy = accuracy
        self.distance1 = distance1
        self.value0 = value0
        self.value1 = value1
    }

    /// Whether the message carries a second spot (Distance1 neither 0 nor invalid).
    public var hasSecondSpot: Bool { distance1 != 0 && distance1 != 1023 }
}

extension ProfileShortMessage: FieldMappedMessage {
    static var messageType: MessageType { .profileShort }

    func writeFields(_ write: (StaticString, UInt64) throws(FieldCodingError) -> Void) throws(FieldCodingError) {
        try write("Offset", UInt64(offset))
        try write("CyclicCounter", UInt64(cyclicCounter))
        try write("PathIndex", UInt64(pathIndex))
        try write("ProfileType", UInt64(profileType.rawValue))
        try write("ControlPoint", isControlPoint.fieldValue)
        try write("Retransmission", isRetransmission.fieldValue)
        try write("Update", isUpdate.fieldValue)
        try write("Accuracy", UInt64(accuracy.rawValue))
        try write("Distance1", UInt64(distance1))
        try write("Value0", UInt64(value0))
        try write("Value1", UInt64(value1))
    }

    init(fields: UnpackedFields) throws(FieldCodingError) {
        self.init(
            offset: try fields.integer("Offset"), pathIndex: try fields.integer("PathIndex"),
            profileType: try fields.enumeration("ProfileType"), value0: try fields.integer("Value0"),
            distance1: try fields.integer("Distance1"), value1: try fields.integer("Value1"),
            cyclicCounter: try fields.integer("CyclicCounter"), isControlPoint: fields.flag("ControlPoint"),
            isRetransmission: fields.flag("Retransmission"), isUpdate: fields.flag("Update"),
            accuracy: try fields.enumeration("Accuracy"))
    }
}

/// PROFILE LONG (type 5): one 32-bit profile value (longitude, latitude, link id, …) on a path.
public struct ProfileLongMessage: Hashable, Sendable {
    /// Offset of the spot in metres from the path start, modulo 8191 (8191 = invalid).
    public var offset: UInt16
    /// Cyclic counter of PROFILE LONG messages, 0…3.
    public var cyclicCounter: UInt8
    /// Path 8…63.
    public var pathIndex: UInt8
    /// What the value describes.
    public var profileType: ProfileLongType
    /// Whether the spot is a control point (of a curve) rather than a value.
    public var isControlPoint: Bool
    /// Retransmission: this content was already sent.
    public var isRetransmission: Bool
    /// Update: replaces what was sent before for the same path, offset and profile type.
    public var isUpdate: Bool
    /// The value (0xFFFFFFFF = N/A), coded per `profileType`.
    public var value: UInt32

    /// Creates a PROFILE LONG.
    public init(
        offset: UInt16, pathIndex: UInt8, profileType: ProfileLongType, value: UInt32,
        cyclicCounter: UInt8 = 0, isControlPoint: Bool = false, isRetransmission: Bool = false,
        isUpdate: Bool = false
    ) {
        self.offset = offset
        self.cyclicCounter = cyclicCounter
        self.pathIndex = pathIndex
        self.profileType = profileType
        self.isControlPoint = isControlPoint
        self.isRetransmission = isRetransmission
        self.isUpdate = isUpdate
        self.value = value
    }
}

extension ProfileLongMessage: FieldMappedMessage {
    static var messageType: MessageType { .profileLong }

    func writeFields(_ write: (StaticString, UInt64) throws(FieldCodingError) -> Void) throws(FieldCodingError) {
        try write("Offset", UInt64(offset))
        try write("CyclicCounter", UInt64(cyclicCounter))
        try write("PathIndex", UInt64(pathIndex))
        try write("ProfileType", UInt64(profileType.rawValue))
        try write("ControlPoint", isControlPoint.fieldValue)
        try write("Retransmission", isRetransmission.fieldValue)
        try write("Update", isUpdate.fieldValue)
        try write("Value", UInt64(value))
    }

    init(fields: UnpackedFields) throws(FieldCodingError) {
        self.init(
            offset: try fields.integer("Offset"), pathIndex: try fields.integer("PathIndex"),
            profileType: try fields.enumeration("ProfileType"), value: try fields.integer("Value"),
            cyclicCounter: try fields.integer("CyclicCounter"), isControlPoint: fields.flag("ControlPoint"),
            isRetransmission: fields.flag("Retransmission"), isUpdate: fields.flag("Update"))
    }
}

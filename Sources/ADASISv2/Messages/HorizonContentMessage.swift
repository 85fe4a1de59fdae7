/// The horizon messages that carry Retransmission and Update flags (SEGMENT, STUB, PROFILE SHORT,
/// PROFILE LONG): what a receiver stores by path and offset.
public protocol HorizonContentMessage: Hashable, Sendable {
    /// 0…3, per message type.
    var cyclicCounter: UInt8 { get set }
    /// The content was sent before (repetition for late or lossy receivers).
    var isRetransmission: Bool { get set }
    /// The content replaces what was sent before for the same place.
    var isUpdate: Bool { get set }
}

extension HorizonContentMessage {
    /// The same content without the counter and the Retransmission/Update flags: what the
    /// reconstructor compares to recognise a repetition.
    public var content: Self {
        flagged(retransmission: false, update: false, counter: 0)
    }

    /// The message with the given flags (and counter).
    public func flagged(retransmission: Bool, update: Bool, counter: UInt8? = nil) -> Self {
        var copy = self
        copy.isRetransmission = retransmission
        copy.isUpdate = update
        if let counter { copy.cyclicCounter = counter }
        return copy
    }
}

extension SegmentMessage: HorizonContentMessage {}
extension StubMessage: HorizonContentMessage {}
extension ProfileShortMessage: HorizonContentMessage {}
extension ProfileLongMessage: HorizonContentMessage {}

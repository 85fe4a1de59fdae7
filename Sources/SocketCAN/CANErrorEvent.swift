import CSocketCAN

/// One condition reported by a kernel error frame (linux/can/error.h). An error frame can carry
/// several at once; ``decode(_:)`` returns them all.
public enum CANErrorEvent: Hashable, Sendable {
    /// The driver timed out transmitting (CAN_ERR_TX_TIMEOUT).
    case transmitTimeout
    /// Arbitration was lost at the given bit (0 if unknown).
    case lostArbitration(bit: UInt8)
    /// The controller's receive or transmit buffer overflowed.
    case controllerOverflow(receive: Bool, transmit: Bool)
    /// The controller reached the error warning level (error counter ≥ 96).
    case errorWarning(receive: Bool, transmit: Bool)
    /// The controller became error passive (error counter ≥ 128).
    case errorPassive(receive: Bool, transmit: Bool)
    /// The controller recovered to error active.
    case errorActive
    /// A protocol violation (bit, form, stuff error, …); raw type and location bytes.
    case protocolViolation(type: UInt8, location: UInt8)
    /// A transceiver problem; raw status byte.
    case transceiver(status: UInt8)
    /// No acknowledgement for a transmitted frame (nobody else on the bus?).
    case noAcknowledgement
    /// The controller went bus-off and stopped participating.
    case busOff
    /// A bus error was seen.
    case busError
    /// The controller was restarted after bus-off.
    case restarted
    /// The error counters, when the frame carries them.
    case errorCounters(transmit: UInt8, receive: UInt8)

    /// Decodes an error frame; an empty list for frames that are not error frames.
    public static func decode(_ frame: CANFrame) -> [CANErrorEvent] {
        guard frame.isErrorFrame else { return [] }
        let classes = frame.identifier.value
        var data = frame.data
        if data.count < 8 { data += [UInt8](repeating: 0, count: 8 - data.count) }
        var events: [CANErrorEvent] = []
        func has(_ bit: UInt32) -> Bool { classes & bit != 0 }
        if has(CAN_ERR_TX_TIMEOUT) { events.append(.transmitTimeout) }
        if has(CAN_ERR_LOSTARB) { events.append(.lostArbitration(bit: data[0])) }
        if has(CAN_ERR_CRTL) {
            let status = UInt32(data[1])
            func bit(_ mask: Int32) -> Bool { status & UInt32(mask) != 0 }
            if bit(CAN_ERR_CRTL_RX_OVERFLOW) || bit(CAN_ERR_CRTL_TX_OVERFLOW) {
                events.append(
                    .controllerOverflow(receive: bit(CAN_ERR_CRTL_RX_OVERFLOW), transmit: bit(CAN_ERR_CRTL_TX_OVERFLOW))
                )
            }
            if bit(CAN_ERR_CRTL_RX_WARNING) || bit(CAN_ERR_CRTL_TX_WARNING) {
                events.append(
                    .errorWarning(receive: bit(CAN_ERR_CRTL_RX_WARNING), transmit: bit(CAN_ERR_CRTL_TX_WARNING)))
            }
            if bit(CAN_ERR_CRTL_RX_PASSIVE) || bit(CAN_ERR_CRTL_TX_PASSIVE) {
                events.append(
                    .errorPassive(receive: bit(CAN_ERR_CRTL_RX_PASSIVE), transmit: bit(CAN_ERR_CRTL_TX_PASSIVE)))
            }
            if bit(CAN_ERR_CRTL_ACTIVE) { events.append(.errorActive) }
        }
        if has(CAN_ERR_PROT) { events.append(.protocolViolation(type: data[2], location: data[3])) }
        if has(CAN_ERR_TRX) { events.append(.transceiver(status: data[4])) }
        if has(CAN_ERR_ACK) { events.append(.noAcknowledgement) }
        if has(CAN_ERR_BUSOFF) { events.append(.busOff) }
        if has(CAN_ERR_BUSERROR) { events.append(.busError) }
        if has(CAN_ERR_RESTARTED) { events.append(.restarted) }
        if has(CAN_ERR_CNT) { events.append(.errorCounters(transmit: data[6], receive: data[7])) }
        return events
    }
}

import ADASISProvider
import SocketCAN

/// The one conversion of provider frames to SocketCAN frames and candump records: the daemon's
/// transmitter and `adasis replay` both use it.
extension ProviderFrame {
    /// The frame as SocketCAN sends it; `nil` when the identifier does not fit its 11 or 29 bits.
    public var canFrame: CANFrame? {
        let canIdentifier = isExtended ? CANIdentifier(extended: identifier) : CANIdentifier(standard: identifier)
        guard let canIdentifier else { return nil }
        return CANFrame(identifier: canIdentifier, dataWord: payload)
    }

    /// The frame as a candump `-L` record on `interface`, stamped with its time on the drive's
    /// time line; `nil` when the identifier does not fit its 11 or 29 bits.
    public func candumpRecord(interface: String) -> CandumpRecord? {
        guard let canFrame else { return nil }
        return CandumpRecord(
            timestampMicroseconds: Int64((time * 1_000_000).rounded()), interface: interface,
            frame: canFrame)
    }
}

/// A CAN identifier: 11-bit standard or 29-bit extended.
public struct CANIdentifier: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The identifier value (at most 0x7FF for standard, 0x1FFFFFFF for extended).
    public let value: UInt32
    /// Whether this is a 29-bit extended identifier.
    public let isExtended: Bool

    /// Creates a standard (11-bit) identifier, or `nil` if `value` does not fit in 11 bits.
    public init?(standard value: UInt32) {
        guard value <= 0x7FF else { return nil }
        self.value = value
        self.isExtended = false
    }

    /// Creates an extended (29-bit) identifier, or `nil` if `value` does not fit in 29 bits.
    public init?(extended value: UInt32) {
        guard value <= 0x1FFF_FFFF else { return nil }
        self.value = value
        self.isExtended = true
    }

    /// The identifier as candump prints it: three hex digits for standard, eight for extended.
    public var description: String { uppercaseHex(value, width: isExtended ? 8 : 3) }

    public static func < (lhs: CANIdentifier, rhs: CANIdentifier) -> Bool {
        (lhs.isExtended ? 1 : 0, lhs.value) < (rhs.isExtended ? 1 : 0, rhs.value)
    }
}

/// `value` in upper-case hexadecimal, zero-padded to at least `width` digits, as candump prints
/// identifiers and data bytes.
func uppercaseHex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// One classic CAN frame: identifier, flags and 0–8 data bytes.
public struct CANFrame: Hashable, Sendable {
    /// The maximum number of data bytes in a classic CAN frame.
    public static let maximumDataLength = 8

    /// The frame's identifier.
    public var identifier: CANIdentifier
    /// Whether this is a remote transmission request (no data, only a length).
    public var isRemoteTransmissionRequest: Bool
    /// Whether this is an error frame reported by the kernel (identifier holds `CAN_ERR_*` class bits).
    public var isErrorFrame: Bool
    /// The data length code (0–8). For data frames it equals `data.count`.
    public private(set) var dataLengthCode: UInt8
    /// The data bytes held as one word, byte 0 in the most significant position and the bytes
    /// past the data zero: a frame is a value that allocates nothing (a provider sends hundreds a
    /// second, a receiver reads as many).
    public private(set) var dataWord: UInt64
    /// The payload, 0–8 bytes (empty for RTR frames).
    public var data: [UInt8] { (0..<dataCount).map { dataByte($0) } }
    /// The number of data bytes: the length code of a data or error frame, none for an RTR frame.
    public var dataCount: Int { isRemoteTransmissionRequest ? 0 : Int(dataLengthCode) }

    /// Data byte `index` (0 up to ``dataCount``).
    public func dataByte(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: dataWord >> UInt64(56 - 8 * index)) }

    /// `bytes` (at most 8) as a data word, byte 0 in the most significant position.
    private static func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64(56 - 8 * $1.offset) }
    }

    /// The reasons a frame cannot be built.
    public enum FormatError: Error, Hashable, Sendable {
        /// More than 8 data bytes, or a DLC above 8.
        case dataTooLong(Int)
    }

    /// Creates a data frame.
    /// - Throws: ``FormatError/dataTooLong(_:)`` if `data` has more than 8 bytes.
    public init(identifier: CANIdentifier, data: [UInt8]) throws(FormatError) {
        guard data.count <= Self.maximumDataLength else { throw .dataTooLong(data.count) }
        self.identifier = identifier
        self.isRemoteTransmissionRequest = false
        self.isErrorFrame = false
        self.dataLengthCode = UInt8(data.count)
        self.dataWord = Self.word(data)
    }

    /// Creates a data frame of 8 bytes held as one word, byte 0 in the most significant position
    /// (`0x0102030405060708` is the bytes 01 … 08).
    public init(identifier: CANIdentifier, dataWord: UInt64) {
        self.identifier = identifier
        self.isRemoteTransmissionRequest = false
        self.isErrorFrame = false
        self.dataLengthCode = 8
        self.dataWord = dataWord
    }

    /// Creates a remote transmission request frame asking for `length` bytes.
    public init(remoteRequest identifier: CANIdentifier, length: UInt8) throws(FormatError) {
        guard length <= 8 else { throw .dataTooLong(Int(length)) }
        self.identifier = identifier
        self.isRemoteTransmissionRequest = true
        self.isErrorFrame = false
        self.dataLengthCode = length
        self.dataWord = 0
    }

    /// Creates an error frame as delivered by the kernel (`CAN_ERR_FLAG`).
    public init(errorClass: UInt32, data: [UInt8]) throws(FormatError) {
        guard data.count <= Self.maximumDataLength else { throw .dataTooLong(data.count) }
        // Masked to 29 bits: always a valid extended identifier.
        self.identifier = CANIdentifier(extended: errorClass & 0x1FFF_FFFF)!
        self.isRemoteTransmissionRequest = false
        self.isErrorFrame = true
        self.dataLengthCode = UInt8(data.count)
        self.dataWord = Self.word(data)
    }
}

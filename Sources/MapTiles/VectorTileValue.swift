/// An attribute value of a vector-tile feature (the `Value` message of the MVT 2.1 spec).
public enum VectorTileValue: Hashable, Sendable {
    /// A UTF-8 string.
    case string(String)
    /// A signed integer (written as `sint_value`).
    case integer(Int64)
    /// A double-precision number.
    case double(Double)
    /// A boolean.
    case bool(Bool)

    /// The encoded `Value` message.
    var encoded: [UInt8] {
        var writer = ProtobufWriter()
        switch self {
        case .string(let text): writer.stringField(1, text)
        case .double(let number): writer.doubleField(3, number)
        case .integer(let number): writer.varintField(6, ProtobufWriter.zigzag(number))
        case .bool(let flag): writer.varintField(7, flag ? 1 : 0)
        }
        return writer.bytes
    }
}

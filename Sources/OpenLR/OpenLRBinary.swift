import Foundation
import RoadMap

/// Why bytes are not an OpenLR line location reference this decoder can read.
public enum OpenLRFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not base64.
    case notBase64
    /// The header names another binary format version than 3.
    case unsupportedVersion(UInt8)
    /// The header names another kind of location (point along line, circle, polygon, …).
    case notALineLocation(header: UInt8)
    /// Fewer bytes than a line location with two points needs (16), or than its offset flags announce.
    case truncated(expected: Int, actual: Int)
    /// A length that is no number of points: 16 + 7 × (points − 2) bytes plus one per offset.
    case invalidLength(Int)
    /// A coded offset that is not below 1.
    case offsetOutOfRange(Double)
    /// A reference to encode with fewer than two points.
    case tooFewPoints(Int)
    /// Two consecutive points further apart than a relative coordinate (±0.32767°) can code.
    case pointsTooFarApart(index: Int)

    public var description: String {
        switch self {
        case .notBase64: return "not base64 text"
        case .unsupportedVersion(let v): return "binary format version \(v), only version 3 is supported"
        case .notALineLocation(let h):
            return "header 0x\(String(h, radix: 16)) is not a line location (only line locations are decoded)"
        case .truncated(let expected, let actual): return "truncated: \(actual) bytes, at least \(expected) needed"
        case .invalidLength(let n): return "\(n) bytes is no line location length (16 + 7 per extra point + offsets)"
        case .offsetOutOfRange(let o): return "offset \(o) is not a share in 0 ..< 1"
        case .tooFewPoints(let n): return "\(n) location reference point(s), a line needs at least 2"
        case .pointsTooFarApart(let i): return "points \(i) and \(i + 1) are too far apart for a relative coordinate"
        }
    }
}

/// The OpenLR binary format, version 3, for line locations (whitepaper v1.5, §7).
///
/// Layout: a header byte (version 3, attribute flag set: 0x0B); the first point with absolute
/// coordinates (2 × 3 bytes, 2^24 units per 360°), two attribute bytes and the DNP byte; every
/// further point but the last with relative coordinates (2 × 2 bytes in 10⁻⁵ °), attributes, DNP;
/// the last point with relative coordinates and attributes whose LFRCNP bits hold the offset
/// flags; then the positive and negative offset bytes when flagged.
public enum OpenLRBinary {
    /// Width of a bearing sector in degrees.
    public static let bearingSectorWidth = 11.25
    /// Width of a distance-to-next-point interval in metres.
    public static let distanceInterval = 58.6
    /// The largest distance between two points that one DNP byte codes, metres.
    public static let maximumDistanceToNextPoint = 255.5 * distanceInterval
    private static let lineHeader: UInt8 = 0x0B

    /// Parses a base64 line location reference.
    public static func decode(base64 text: String) throws(OpenLRFormatError) -> LineLocationReference {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .notBase64
        }
        return try decode(bytes: [UInt8](data))
    }

    /// Parses the bytes of a line location reference.
    public static func decode(bytes: [UInt8]) throws(OpenLRFormatError) -> LineLocationReference {
        guard let header = bytes.first else { throw .truncated(expected: 16, actual: 0) }
        if header & 0x07 != 3 { throw .unsupportedVersion(header & 0x07) }
        if header != lineHeader { throw .notALineLocation(header: header) }
        guard bytes.count >= 16 else { throw .truncated(expected: 16, actual: bytes.count) }
        let extra = (bytes.count - 16) % 7
        let points = 2 + (bytes.count - 16) / 7
        var reader = ByteReader(bytes: bytes, position: 1)
        var coordinate = GeoPoint(
            latitude: 0, longitude: absoluteDegrees(reader.signed(3)))
        coordinate.latitude = absoluteDegrees(reader.signed(3))
        var result: [LocationReferencePoint] = []
        var lastAttributes: UInt8 = 0
        for index in 0..<points {
            if index > 0 {
                coordinate = GeoPoint(
                    latitude: coordinate.latitude,
                    longitude: coordinate.longitude + Double(reader.signed(2)) / 100_000)
                coordinate.latitude += Double(reader.signed(2)) / 100_000
            }
            let first = reader.byte(), second = reader.byte()
            let last = index == points - 1
            let dnp = last ? 0 : (Double(reader.byte()) + 0.5) * distanceInterval
            result.append(
                LocationReferencePoint(
                    coordinate: coordinate, bearingSector: second & 0x1F, functionalRoadClass: (first >> 3) & 0x07,
                    formOfWay: OpenLRFormOfWay(rawValue: first & 0x07)!,
                    lowestFRCToNextPoint: last ? nil : (second >> 5) & 0x07, distanceToNextPoint: dnp))
            lastAttributes = second
        }
        // The last point's LFRCNP bits are the offset flags.
        let positiveFlag = lastAttributes & 0x40 != 0, negativeFlag = lastAttributes & 0x20 != 0
        let flagged = (positiveFlag ? 1 : 0) + (negativeFlag ? 1 : 0)
        if extra < flagged { throw .truncated(expected: bytes.count - extra + flagged, actual: bytes.count) }
        if extra > flagged { throw .invalidLength(bytes.count) }
        let positive = positiveFlag ? (Double(reader.byte()) + 0.5) / 256 : 0
        let negative = negativeFlag ? (Double(reader.byte()) + 0.5) / 256 : 0
        return LineLocationReference(points: result, positiveOffset: positive, negativeOffset: negative)
    }

    /// Writes a line location reference as base64.
    public static func encode(_ reference: LineLocationReference) throws(OpenLRFormatError) -> String {
        Data(try encodeBytes(reference)).base64EncodedString()
    }

    /// Writes a line location reference's bytes. Coordinates are rounded to the format's
    /// resolution; each relative coordinate is taken from the previous point as coded, so the
    /// rounding does not add up along the reference.
    public static func encodeBytes(_ reference: LineLocationReference) throws(OpenLRFormatError) -> [UInt8] {
        let points = reference.points
        guard points.count >= 2 else { throw .tooFewPoints(points.count) }
        for offset in [reference.positiveOffset, reference.negativeOffset] where !(offset >= 0 && offset < 1) {
            throw .offsetOutOfRange(offset)
        }
        var bytes: [UInt8] = [lineHeader]
        let longitude = absoluteUnits(points[0].coordinate.longitude)
        let latitude = absoluteUnits(points[0].coordinate.latitude)
        append(longitude, size: 3, to: &bytes)
        append(latitude, size: 3, to: &bytes)
        var previous = GeoPoint(latitude: absoluteDegrees(latitude), longitude: absoluteDegrees(longitude))
        for (index, point) in points.enumerated() {
            if index > 0 {
                let dLon = Int((100_000 * (point.coordinate.longitude - previous.longitude)).rounded())
                let dLat = Int((100_000 * (point.coordinate.latitude - previous.latitude)).rounded())
                // Two signed bytes: -32768 is as valid as 32767 (the decoder reads it).
                guard Int16(exactly: dLon) != nil, Int16(exactly: dLat) != nil else {
                    throw .pointsTooFarApart(index: index - 1)
                }
                append(dLon, size: 2, to: &bytes)
                append(dLat, size: 2, to: &bytes)
                previous = GeoPoint(
                    latitude: previous.latitude + Double(dLat) / 100_000,
                    longitude: previous.longitude + Double(dLon) / 100_000)
            }
            let last = index == points.count - 1
            bytes.append((point.functionalRoadClass & 0x07) << 3 | point.formOfWay.rawValue)
            var flags = (point.lowestFRCToNextPoint ?? 7) & 0x07
            if last { flags = (reference.positiveOffset > 0 ? 2 : 0) | (reference.negativeOffset > 0 ? 1 : 0) }
            bytes.append(flags << 5 | (point.bearingSector & 0x1F))
            if !last {
                let interval = (point.distanceToNextPoint / distanceInterval - 0.5).rounded()
                bytes.append(UInt8(max(0, min(255, interval))))
            }
        }
        for offset in [reference.positiveOffset, reference.negativeOffset] where offset > 0 {
            bytes.append(UInt8(min(255, (offset * 256).rounded(.down))))
        }
        return bytes
    }

    /// The bearing sector of a bearing in degrees.
    public static func bearingSector(_ degrees: Double) -> UInt8 {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return UInt8(min(31, Int(d / bearingSectorWidth)))
    }

    private static func absoluteDegrees(_ units: Int) -> Double {
        let sign: Double = units > 0 ? 1 : (units < 0 ? -1 : 0)
        return (Double(units) - sign * 0.5) * 360 / Double(1 << 24)
    }

    private static func absoluteUnits(_ degrees: Double) -> Int {
        let sign: Double = degrees > 0 ? 1 : (degrees < 0 ? -1 : 0)
        return Int((sign * 0.5 + degrees * Double(1 << 24) / 360).rounded())
    }

    private static func append(_ value: Int, size: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: 8 * (size - 1), through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}

/// Reads big-endian fields; the caller checks the length first.
private struct ByteReader {
    let bytes: [UInt8]
    var position: Int

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return bytes[position]
    }

    mutating func signed(_ size: Int) -> Int {
        var value = 0
        for _ in 0..<size { value = value << 8 | Int(byte()) }
        let bits = 8 * size
        return value >= 1 << (bits - 1) ? value - (1 << bits) : value
    }
}

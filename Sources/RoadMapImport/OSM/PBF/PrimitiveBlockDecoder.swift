import RoadMap

/// Decodes an `OSMData` blob's `PrimitiveBlock` into OSM elements.
///
/// `PrimitiveBlock{1: stringtable, 2: primitivegroup, 17: granularity = 100, 18: date_granularity,
/// 19: lat_offset, 20: lon_offset}`, `StringTable{1: repeated bytes s}`,
/// `PrimitiveGroup{1: nodes, 2: dense, 3: ways, 4: relations, 5: changesets (skipped)}`.
/// The string table is decoded once per block; scratch arrays are reused between elements.
struct PrimitiveBlockDecoder {
    /// The block's string table.
    var strings: [String] = []
    /// Coordinate scale: nanodegrees per unit of an encoded latitude or longitude.
    var granularity: Int64 = 100
    /// Milliseconds per timestamp unit of the block (`date_granularity`, default 1000).
    var dateGranularity: Int64 = 1000
    /// The newest element timestamp seen so far (Unix seconds), from Info/DenseInfo; 0 when none.
    var newestTimestamp: Int64 = 0
    /// Nanodegrees added to every latitude.
    var latitudeOffset: Int64 = 0
    /// Nanodegrees added to every longitude.
    var longitudeOffset: Int64 = 0
    /// Reused scratch buffers (element-local lists before they become tags, refs or members).
    var keys: [UInt64] = []
    var values: [UInt64] = []
    var numbers: [Int64] = []
    var latitudes: [Int64] = []
    var longitudes: [Int64] = []
    var kinds: [UInt64] = []

    /// A decoder with empty scratch buffers.
    init() {}

    /// The elements of `kinds` of one uncompressed `PrimitiveBlock`, in file order. Elements of
    /// other kinds are skipped undecoded; a block with none of `kinds` returns no element without
    /// decoding its string table (its framing is still checked).
    mutating func elements(of block: [UInt8], kinds: OSMElementKinds) throws(WireFormatError) -> [OSMElement] {
        try block.withUnsafeBytesTyped { (buffer) throws(WireFormatError) in
            var reader = ProtobufReader(buffer)
            var groups: [UnsafeRawBufferPointer] = []
            var stringTable: UnsafeRawBufferPointer?
            granularity = 100
            dateGranularity = 1000
            latitudeOffset = 0
            longitudeOffset = 0
            while let (field, wireType) = try reader.readFieldKey() {
                switch field {
                case 1:
                    try ProtobufReader.expect(wireType, .lengthDelimited, field: field, in: "PrimitiveBlock")
                    stringTable = try reader.readLengthDelimited()
                case 2:
                    try ProtobufReader.expect(wireType, .lengthDelimited, field: field, in: "PrimitiveBlock")
                    groups.append(try reader.readLengthDelimited())
                case 17:
                    try ProtobufReader.expect(wireType, .varint, field: field, in: "PrimitiveBlock")
                    granularity = Int64(truncatingIfNeeded: try reader.readVarint())
                case 18:
                    try ProtobufReader.expect(wireType, .varint, field: field, in: "PrimitiveBlock")
                    dateGranularity = Int64(truncatingIfNeeded: try reader.readVarint())
                case 19:
                    try ProtobufReader.expect(wireType, .varint, field: field, in: "PrimitiveBlock")
                    latitudeOffset = Int64(bitPattern: try reader.readVarint())
                case 20:
                    try ProtobufReader.expect(wireType, .varint, field: field, in: "PrimitiveBlock")
                    longitudeOffset = Int64(bitPattern: try reader.readVarint())
                default:
                    try reader.skip(wireType)
                }
            }
            guard granularity > 0 else {
                throw WireFormatError("the PrimitiveBlock's granularity \(granularity) is not positive")
            }
            guard let stringTable else { throw WireFormatError("the PrimitiveBlock has no string table") }
            if kinds != .all {
                var wanted = false
                for group in groups where !wanted { wanted = try Self.holds(kinds, group) }
                if !wanted { return [] }
            }
            try decodeStrings(stringTable)
            var elements: [OSMElement] = []
            for group in groups {
                try decodeGroup(group, kinds: kinds, into: &elements)
            }
            return elements
        }
    }

    private mutating func decodeStrings(_ buffer: UnsafeRawBufferPointer) throws(WireFormatError) {
        var reader = ProtobufReader(buffer)
        strings.removeAll(keepingCapacity: true)
        while let (field, wireType) = try reader.readFieldKey() {
            if field == 1 {
                try ProtobufReader.expect(wireType, .lengthDelimited, field: field, in: "StringTable")
                strings.append(try reader.readString())
            } else {
                try reader.skip(wireType)
            }
        }
    }

    /// The kind of element `PrimitiveGroup` field `field` holds (`nil` for changesets and unknown fields).
    private static func kind(ofGroupField field: UInt64) -> OSMElementKinds? {
        switch field {
        case 1, 2: .nodes
        case 3: .ways
        case 4: .relations
        default: nil
        }
    }

    /// Whether the `PrimitiveGroup` in `buffer` holds an element of `kinds`.
    private static func holds(_ kinds: OSMElementKinds, _ buffer: UnsafeRawBufferPointer) throws(WireFormatError)
        -> Bool
    {
        var reader = ProtobufReader(buffer)
        while let (field, wireType) = try reader.readFieldKey() {
            if let kind = kind(ofGroupField: field), kinds.contains(kind) { return true }
            try reader.skip(wireType)
        }
        return false
    }

    private mutating func decodeGroup(
        _ buffer: UnsafeRawBufferPointer, kinds: OSMElementKinds, into elements: inout [OSMElement]
    ) throws(WireFormatError) {
        var reader = ProtobufReader(buffer)
        while let (field, wireType) = try reader.readFieldKey() {
            guard let kind = Self.kind(ofGroupField: field) else {
                try reader.skip(wireType)
                continue
            }
            try ProtobufReader.expect(wireType, .lengthDelimited, field: field, in: "PrimitiveGroup")
            let message = try reader.readLengthDelimited()
            guard kinds.contains(kind) else { continue }
            switch field {
            case 1: elements.append(.node(try node(message)))
            case 2: try appendDenseNodes(message, to: &elements)
            case 3: elements.append(.way(try way(message)))
            default: elements.append(.relation(try relation(message)))
            }
        }
    }

    /// The string at `index` of the string table.
    @inline(__always)
    func string(at index: UInt64) throws(WireFormatError) -> String {
        guard index < UInt64(strings.count) else {
            throw WireFormatError("string index \(index) is outside the string table (\(strings.count) entries)")
        }
        return strings[Int(index)]
    }

    /// Tags from the parallel `keys` and `values` scratch lists.
    func tagsFromScratch(in message: String) throws(WireFormatError) -> [String: String] {
        guard keys.count == values.count else {
            throw WireFormatError("\(message) has \(keys.count) keys but \(values.count) values")
        }
        if keys.isEmpty { return [:] }
        var tags = [String: String](minimumCapacity: keys.count)
        for index in keys.indices {
            tags[try string(at: keys[index])] = try string(at: values[index])
        }
        return tags
    }

    /// Notes an element timestamp in units of `dateGranularity` milliseconds.
    mutating func noteTimestamp(_ units: Int64) {
        let seconds = units.multipliedReportingOverflow(by: dateGranularity).partialValue / 1000
        if seconds > newestTimestamp { newestTimestamp = seconds }
    }

    /// Reads `Info{2: timestamp}` of a node, way or relation.
    mutating func noteInfo(_ buffer: UnsafeRawBufferPointer) throws(WireFormatError) {
        var reader = ProtobufReader(buffer)
        while let (field, wireType) = try reader.readFieldKey() {
            if field == 2, wireType == .varint {
                noteTimestamp(Int64(bitPattern: try reader.readVarint()))
            } else {
                try reader.skip(wireType)
            }
        }
    }

    /// Reads `DenseInfo{2: timestamp (packed sint64, delta-coded)}`.
    mutating func noteDenseInfo(_ buffer: UnsafeRawBufferPointer) throws(WireFormatError) {
        var reader = ProtobufReader(buffer)
        while let (field, wireType) = try reader.readFieldKey() {
            if field == 2 {
                var running: Int64 = 0
                var newest: Int64 = 0
                try reader.readRepeatedVarints(wireType, field: field, in: "DenseInfo") {
                    running &+= ProtobufReader.zigzagDecoded($0)
                    newest = max(newest, running)
                }
                noteTimestamp(newest)
            } else {
                try reader.skip(wireType)
            }
        }
    }

    /// Degrees from an encoded coordinate: `1e-9 * (offset + granularity * value)`.
    @inline(__always)
    func degrees(_ value: Int64, offset: Int64) -> Double {
        Double(offset &+ granularity &* value) / 1_000_000_000
    }
}

/// META-DATA (type 6): map, country, driving side, units and protocol version, sent every ~5 s.
public struct MetaDataMessage: Hashable, Sendable {
    /// The map's provider (this project sends `.other` for OpenStreetMap).
    public var mapProvider: MapProvider
    /// ISO 3166-1 numeric country code (246 Finland, 276 Germany, …); 0 unknown.
    public var countryCode: UInt16
    /// Cyclic counter of META-DATA messages, 0…3.
    public var cyclicCounter: UInt8
    /// Protocol version, major part (2 for 2.0.4).
    public var protocolVersionMajor: UInt8
    /// Protocol version, minor-sub part (4 for 2.0.4).
    public var protocolVersionMinorSub: UInt8
    /// Hardware version, 0…511, project-defined.
    public var hardwareVersion: UInt16
    /// Left- or right-hand traffic.
    public var drivingSide: DrivingSide
    /// Region code: 0 unknown, 32767 N/A, otherwise project-defined.
    public var regionCode: UInt16
    /// Map version quarter, 0…3 = Q1…Q4.
    public var mapVersionQuarter: UInt8
    /// Map version year code: year − 2000, 63 N/A; see `mapYear`.
    public var mapVersionYear: UInt8
    /// Unit of every EffectiveSpeedLimit.
    public var speedUnits: SpeedUnits
    /// Protocol version, minor part (0 for 2.0.4).
    public var protocolVersionMinor: UInt8

    /// Creates a META-DATA; by default protocol version 2.0.4, km/h, right-hand traffic,
    /// OpenStreetMap, everything else unknown/N/A.
    public init(
        countryCode: UInt16 = 0, drivingSide: DrivingSide = .right,
        speedUnits: SpeedUnits = .kilometresPerHour, mapProvider: MapProvider = .other,
        cyclicCounter: UInt8 = 0, protocolVersionMajor: UInt8 = 2, protocolVersionMinor: UInt8 = 0,
        protocolVersionMinorSub: UInt8 = 4, hardwareVersion: UInt16 = 0, regionCode: UInt16 = 0,
        mapVersionYear: UInt8 = 63, mapVersionQuarter: UInt8 = 0
    ) {
        self.mapProvider = mapProvider
        self.countryCode = countryCode
        self.cyclicCounter = cyclicCounter
        self.protocolVersionMajor = protocolVersionMajor
        self.protocolVersionMinorSub = protocolVersionMinorSub
        self.hardwareVersion = hardwareVersion
        self.drivingSide = drivingSide
        self.regionCode = regionCode
        self.mapVersionQuarter = mapVersionQuarter
        self.mapVersionYear = mapVersionYear
        self.speedUnits = speedUnits
        self.protocolVersionMinor = protocolVersionMinor
    }

    /// The map's calendar year; `nil` when N/A.
    public var mapYear: Int? { ValueCoding.mapVersionYear(code: mapVersionYear) }
    /// The protocol version as text, e.g. "2.0.4".
    public var protocolVersion: String { "\(protocolVersionMajor).\(protocolVersionMinor).\(protocolVersionMinorSub)" }
}

extension MetaDataMessage: FieldMappedMessage {
    static var messageType: MessageType { .metaData }

    func writeFields(_ write: (StaticString, UInt64) throws(FieldCodingError) -> Void) throws(FieldCodingError) {
        try write("MapProvider", UInt64(mapProvider.rawValue))
        try write("CountryCode", UInt64(countryCode))
        try write("CyclicCounter", UInt64(cyclicCounter))
        try write("ProtocolVersionMajor", UInt64(protocolVersionMajor))
        try write("ProtocolVersionMinorSub", UInt64(protocolVersionMinorSub))
        try write("HardwareVersion", UInt64(hardwareVersion))
        try write("DrivingSide", UInt64(drivingSide.rawValue))
        try write("RegionCode", UInt64(regionCode))
        try write("MapVersionQuarter", UInt64(mapVersionQuarter))
        try write("MapVersionYear", UInt64(mapVersionYear))
        try write("SpeedUnits", UInt64(speedUnits.rawValue))
        try write("ProtocolVersionMinor", UInt64(protocolVersionMinor))
    }

    init(fields: UnpackedFields) throws(FieldCodingError) {
        self.init(
            countryCode: try fields.integer("CountryCode"), drivingSide: try fields.enumeration("DrivingSide"),
            speedUnits: try fields.enumeration("SpeedUnits"), mapProvider: try fields.enumeration("MapProvider"),
            cyclicCounter: try fields.integer("CyclicCounter"),
            protocolVersionMajor: try fields.integer("ProtocolVersionMajor"),
            protocolVersionMinor: try fields.integer("ProtocolVersionMinor"),
            protocolVersionMinorSub: try fields.integer("ProtocolVersionMinorSub"),
            hardwareVersion: try fields.integer("HardwareVersion"), regionCode: try fields.integer("RegionCode"),
            mapVersionYear: try fields.integer("MapVersionYear"),
            mapVersionQuarter: try fields.integer("MapVersionQuarter"))
    }
}
